import type { TPrincipal } from '../../auth/principal.ts';

/**
 * Who may do what with preferences. A user's document: its owner reads and writes it; an ADMIN of
 * the organisation may read anyone's (the user was loaded within the caller's organisation, so
 * another organisation's never reaches here) but writes only their own. The organisation's
 * document: its ADMINs write it.
 */
export type TUserPreferenceAction = 'read' | 'write';

export function canUserPreferences(
  principal: TPrincipal,
  owner: { id: string },
  action: TUserPreferenceAction,
): boolean {
  if (owner.id === principal.userId) return true;
  return action === 'read' && principal.role === 'ADMIN';
}

export function canWriteOrganisationPreferences(principal: TPrincipal): boolean {
  return principal.role === 'ADMIN';
}
