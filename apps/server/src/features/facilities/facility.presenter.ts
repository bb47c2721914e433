import { facilityFooterPath, facilityHeaderPath, type TFacilityDetails } from '@ris/domain';
import type { facilities } from '../../db/schema/index.ts';

export type TFacilityRow = typeof facilities.$inferSelect;

/** facilities row → ZFacilityDetails (letterhead images as API paths, null when none). */
export function presentFacilityDetails(row: TFacilityRow): TFacilityDetails {
  return {
    id: row.id,
    organisation_fk: row.organisationId,
    parent_facility_fk: row.parentFacilityId,
    name: row.name,
    code: row.code,
    address: row.address,
    phone: row.phone,
    email: row.email,
    time_zone: row.timeZone,
    status: row.status,
    letterhead_enabled: row.letterheadEnabled,
    header_file_url: row.letterheadHeaderFileId ? facilityHeaderPath(row.id) : null,
    footer_file_url: row.letterheadFooterFileId ? facilityFooterPath(row.id) : null,
    updated_at: row.updatedAt.toISOString(),
  };
}
