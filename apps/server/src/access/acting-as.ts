import { AppError } from '../http/app-error.ts';
import type { TPrincipal } from '../auth/principal.ts';

/**
 * by_user_id / by_user_fk name who acts. Identity comes from the token only: the field may be left
 * out or name the caller; naming anyone else is refused (403), never trusted.
 *
 * Every route calls this right after validation and before loading or changing anything, so a
 * request that names someone else is refused the same way whatever it addresses, and no command
 * ever has to think about a second identity.
 */
export function assertActingAs(
  principal: TPrincipal,
  byUserId: string | undefined,
  field = 'by_user_id',
): void {
  if (byUserId !== undefined && byUserId !== principal.userId) {
    throw new AppError('FORBIDDEN', `${field}: you may act only as yourself`, { field });
  }
}
