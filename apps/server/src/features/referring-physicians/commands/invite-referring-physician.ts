// POST /user/referring-physician/{id}/invitation: the physician gets a REFERRING_PHYSICIAN account
// and an e-mail with a one-time link to choose a password, so they can sign in and read the final
// reports of the studies they referred. User administration does the account's part (its rules,
// audit and link); this links the account to the physician.
import { eq } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TRequestOrigin } from '../../../auth/audit.ts';
import type { TTx } from '../../../db/client.ts';
import { referringPhysicians } from '../../../db/schema/index.ts';
import type { BlobStore } from '../../../files/blob-store.ts';
import { AppError } from '../../../http/app-error.ts';
import { saveUser } from '../../users/commands/save-user.ts';
import { resendInvitation, type TIssuedLink } from '../../users/commands/user-links.ts';
import { findAdministeredUser } from '../../users/users.queries.ts';
import { physicianFacts, type TPhysicianRow } from '../referring-physicians.presenter.ts';
import { authorizeReferringPhysician, invitationRefusal } from '../referring-physicians.policy.ts';
import { requireVisiblePhysician } from '../referring-physicians.queries.ts';
import { recordPhysicianEvent } from './physician-audit.ts';

export type TInviteInput = {
  scope: TScope;
  physicianId: string;
  origin: TRequestOrigin;
  publicUrl: string;
  blobs: BlobStore;
};

/** "Dr Meera Iyer" → first name "Dr Meera", last name "Iyer" (a one-word name is both). */
function namesOf(name: string): { first_name: string; last_name: string } {
  const words = name.trim().split(/\s+/);
  const last = words.pop() ?? name;
  return { first_name: words.length > 0 ? words.join(' ') : last, last_name: last };
}

const emailTakenByStaff = () =>
  new AppError('CONFLICT', 'email: this address belongs to an account that is not a referring physician’s', {
    field: 'email',
  });

/**
 * The account for the physician: the one linked already (invited again while it has no password),
 * a REFERRING_PHYSICIAN account of the organisation with their e-mail that the caller manages and
 * no other physician uses (linked, and invited when it has no password), or a new one (created and
 * invited by user administration; an address taken elsewhere is its 409 naming email).
 */
async function accountFor(tx: TTx, input: TInviteInput, row: TPhysicianRow, email: string) {
  const base = { scope: input.scope, origin: input.origin, publicUrl: input.publicUrl };
  if (row.physician.userId) {
    const issued = await resendInvitation(tx, { ...base, userId: row.physician.userId });
    return { userId: row.physician.userId, issued, account: 'invited_again' as const };
  }
  const existing = await findAdministeredUser(tx, input.scope, { email });
  if (existing) {
    if (existing.row.role !== 'REFERRING_PHYSICIAN') throw emailTakenByStaff();
    const [other] = await tx
      .select({ id: referringPhysicians.id })
      .from(referringPhysicians)
      .where(eq(referringPhysicians.userId, existing.row.id));
    if (other) {
      throw new AppError('CONFLICT', 'email: another referring physician signs in with this address', {
        field: 'email',
      });
    }
    const issued =
      existing.row.passwordHash === null
        ? await resendInvitation(tx, { ...base, userId: existing.row.id })
        : null;
    return { userId: existing.row.id, issued, account: 'linked' as const };
  }
  const created = await saveUser(tx, {
    ...base,
    fields: {
      role: 'REFERRING_PHYSICIAN',
      ...namesOf(row.physician.name),
      display_name: row.physician.name.slice(0, 200),
      email,
      facility_fks: row.facilityIds,
      by_user_id: input.scope.principal.userId,
    },
    signature: null,
    blobs: input.blobs,
  });
  const invitation = created.invitation;
  if (!invitation) throw new Error('a new user was created without an invitation');
  return {
    userId: created.userId,
    issued: {
      userId: created.userId,
      to: invitation.to,
      by: invitation.invitedBy,
      organisationName: invitation.organisationName,
      link: invitation.link,
    } satisfies TIssuedLink,
    account: 'created' as const,
  };
}

/**
 * Invites the physician (one transaction: the account, its link and the physician's link to it
 * commit together or not at all). Returns the link to mail after the commit, or null when the
 * account found already signs in (it is only linked).
 */
export async function inviteReferringPhysician(tx: TTx, input: TInviteInput): Promise<TIssuedLink | null> {
  const { scope } = input;
  const row = await requireVisiblePhysician(tx, scope, input.physicianId, { forUpdate: true });
  const facts = physicianFacts(row);
  authorizeReferringPhysician(scope, 'edit', facts);
  const refusal = invitationRefusal(facts);
  if (refusal) throw refusal;
  const email = row.physician.email;
  if (email === null) throw new Error('invitationRefusal let a physician without e-mail through');
  const { userId, issued, account } = await accountFor(tx, input, row, email);
  if (row.physician.userId !== userId) {
    await tx.update(referringPhysicians).set({ userId }).where(eq(referringPhysicians.id, row.physician.id));
  }
  await recordPhysicianEvent(tx, {
    action: 'referring_physician.invited',
    scope,
    physicianId: row.physician.id,
    origin: input.origin,
    data: { user_id: userId, account, mailed: issued !== null },
  });
  return issued;
}
