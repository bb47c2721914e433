import type { TMacroAbilities, TRole } from '@ris/domain';
import type { TPrincipal } from '../../auth/principal.ts';

/**
 * Who may read and change a user's macros (the owner was loaded within the caller's organisation, so
 * another organisation's never reach here): the owner, or an ADMIN of the organisation. Referring
 * physicians write no reports, so they neither use nor own macros.
 */
export type TMacroAction =
  /** Read, edit and delete the owner's macros, and create new ones for them. */
  'change';

export function canMacro(
  principal: TPrincipal,
  owner: { id: string; role: TRole | null },
  action: TMacroAction = 'change',
): boolean {
  if (action !== 'change') return false;
  if (principal.role === null || principal.role === 'REFERRING_PHYSICIAN') return false;
  if (owner.role === null || owner.role === 'REFERRING_PHYSICIAN') return false;
  return owner.id === principal.userId || principal.role === 'ADMIN';
}

/** What the caller may do with a macro of `owner` (sent with it as ZMacro.abilities). */
export function macroAbilities(
  principal: TPrincipal,
  owner: { id: string; role: TRole | null },
): TMacroAbilities {
  return { change: canMacro(principal, owner, 'change') };
}
