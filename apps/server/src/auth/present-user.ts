import type { TRadiologistUserType, TUser } from '@ris/domain';
import type { TDbOrTx } from '../db/client.ts';
import {
  loadUserFacts,
  presentUser,
  type TUserFacts,
  type TUserRow,
} from '../features/users/users.presenter.ts';

export type { TUserRow } from '../features/users/users.presenter.ts';

/** A user with what ID tokens and the wire shape need beyond the users row. */
export type TUserProfile = {
  user: TUserRow;
  facts: TUserFacts;
  facilityIds: string[];
  userType: TRadiologistUserType | null;
};

/** Loads the facts of one user through the users presenter, shaped for token claims. */
export async function loadUserProfile(db: TDbOrTx, user: TUserRow): Promise<TUserProfile> {
  const facts = (await loadUserFacts(db, [user.id])).get(user.id) ?? { facilityIds: [], radiologist: null };
  const wire = presentUser(user, facts);
  return { user, facts, facilityIds: facts.facilityIds, userType: wire.user_type };
}

/** The wire shape of a profile (ZUser); one presenter serves sign-in and the user routes. */
export function userToWire(profile: TUserProfile): TUser {
  return presentUser(profile.user, profile.facts);
}
