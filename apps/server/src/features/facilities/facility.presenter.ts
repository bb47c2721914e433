import { facilityFooterPath, facilityHeaderPath, type TFacilityDetails } from '@ris/domain';
import type { facilities } from '../../db/schema/index.ts';
import { presentFacility } from '../users/users.presenter.ts';

export type TFacilityRow = typeof facilities.$inferSelect;

/** facilities row → ZFacilityDetails: the facility as everywhere, plus its letterhead images as API paths. */
export function presentFacilityDetails(row: TFacilityRow): TFacilityDetails {
  return {
    ...presentFacility(row),
    header_file_url: row.letterheadHeaderFileId ? facilityHeaderPath(row.id) : null,
    footer_file_url: row.letterheadFooterFileId ? facilityFooterPath(row.id) : null,
    local_node_url: row.localNodeUrl,
    updated_at: row.updatedAt.toISOString(),
  };
}
