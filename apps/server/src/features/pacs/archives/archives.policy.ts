// Who may configure an organisation's image archives. Visibility is decided first in SQL (an archive
// of another organisation is not found); these rules are asked about the caller's own organisation.
import type { TPrincipal } from '../../../auth/principal.ts';
import { AppError } from '../../../http/app-error.ts';

export type TArchiveAction =
  /** GET /pacs/archives: the archives with their settings (never the secret) and sync state. */
  | 'read'
  /** POST, PUT, DELETE /pacs/archives[/{id}]. */
  | 'manage'
  /** POST /pacs/archives/{id}/test: call the archive now with its stored credentials. */
  | 'test';

/**
 * Only an ADMIN of the organisation: an archive serves every facility it names and holds credentials
 * to the images, so facility administrators (and everyone else) neither see nor change it.
 */
export function canArchive(principal: TPrincipal, action: TArchiveAction): boolean {
  switch (action) {
    case 'read':
    case 'manage':
    case 'test':
      return principal.role === 'ADMIN' && principal.organisationId !== null;
  }
}

/** 403 unless canArchive allows it. */
export function authorizeArchive(principal: TPrincipal, action: TArchiveAction): void {
  if (!canArchive(principal, action)) {
    throw new AppError('FORBIDDEN', 'Only an administrator of the organisation may configure image archives');
  }
}
