import type { TPrincipal } from '../../auth/principal.ts';
import type { TUserRow } from './users.presenter.ts';

/** What may be done to a user record the caller can already see. */
export type TUserAction = 'read' | 'manage';

/**
 * Decides an action on a visible user (visibility itself is decided in the query, see users.queries).
 * Everyone may read what they can see; only an admin of the same organisation manages users
 * (creating, editing and disabling come with the user-administration screens).
 */
export function canUser(principal: TPrincipal, action: TUserAction, target: TUserRow): boolean {
  switch (action) {
    case 'read':
      return true;
    case 'manage':
      return principal.role === 'ADMIN' && principal.organisationId === target.organisationId;
  }
}
