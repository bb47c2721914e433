import type { TRole } from '@ris/domain';
import type { TPrincipal } from '../../auth/principal.ts';

/**
 * Who may read and change a user's macros (the owner was loaded within the caller's organisation, so
 * another organisation's never reach here): the owner, or an ADMIN of the organisation. Referring
 * physicians write no reports, so they neither use nor own macros.
 */
export function canMacro(principal: TPrincipal, owner: { id: string; role: TRole | null }): boolean {
  if (principal.role === null || principal.role === 'REFERRING_PHYSICIAN') return false;
  if (owner.role === null || owner.role === 'REFERRING_PHYSICIAN') return false;
  return owner.id === principal.userId || principal.role === 'ADMIN';
}
