// Archive row → its API shape. The sealed secret stays here: only whether one is stored goes out.
import type { TPacsArchive, TPacsArchiveKind, TPacsAuthKind } from '@ris/domain';
import type { TArchiveWithFacilities } from './archives.queries.ts';

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

export function presentArchive({ row, facilities }: TArchiveWithFacilities): TPacsArchive {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as TPacsArchiveKind,
    dicomweb_url: row.dicomwebUrl,
    orthanc_url: row.orthancUrl,
    auth_kind: row.authKind as TPacsAuthKind,
    username: row.username,
    has_secret: row.secretSealed !== null,
    facilities: facilities.map((facility) => ({
      facility_id: facility.facilityId,
      facility_name: facility.facilityName,
      institution_name: facility.institutionName,
    })),
    default_facility_id: row.defaultFacilityId,
    enabled: row.enabled,
    poll_interval_seconds: row.pollIntervalSeconds,
    sync: {
      last_sync_at: iso(row.lastSyncAt),
      last_success_at: iso(row.lastSuccessAt),
      last_error: row.lastError,
      last_error_at: iso(row.lastErrorAt),
      failure_count: row.failureCount,
      changes_cursor: row.changesCursor,
      polled_until: iso(row.polledUntil),
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
