import {
  defaultPreferences,
  repairPreferencesPatch,
  resolvePreferences,
  type TOrganisationPreferences,
  type TUserPreferences,
} from '@ris/domain';
import type { TPreferenceRow, TPreferenceRows } from './preferences.queries.ts';

/**
 * A user's preferences as GET and PUT /user/preference/{user} answer them: resolved (user over
 * organisation over default), with where each field came from and both stored documents (each
 * repaired, so a value a later release no longer knows is dropped rather than failing the answer).
 */
export function presentUserPreferences(
  owner: { userId: string; organisationId: string },
  rows: TPreferenceRows,
): TUserPreferences {
  const user = repairPreferencesPatch(rows.user?.settings);
  const organisation = repairPreferencesPatch(rows.organisation?.settings);
  const { preferences, sources } = resolvePreferences({ default: defaultPreferences(), organisation, user });
  return {
    user_fk: owner.userId,
    organisation_fk: owner.organisationId,
    preferences,
    sources,
    user,
    organisation,
    updated_at: rows.user ? rows.user.updatedAt.toISOString() : null,
  };
}

/** The organisation's document as POST /user/preference answers it. */
export function presentOrganisationPreferences(row: TPreferenceRow): TOrganisationPreferences {
  if (!row.organisationId) throw new Error('an ORGANISATION preference row without an organisation');
  return {
    scope: 'ORGANISATION',
    organisation_fk: row.organisationId,
    preferences: repairPreferencesPatch(row.settings),
    updated_at: row.updatedAt.toISOString(),
  };
}
