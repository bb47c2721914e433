/**
 * Who may pull studies from the image archives now (GET /worklist/populate/worklist, the worklist's
 * "Sync from PACS"): admins for their organisation, facility admins for their facility's archives.
 */
export function maySyncFromPacs(role: string | null | undefined): boolean {
  return role === 'ADMIN' || role === 'FACILITY_ADMIN';
}
