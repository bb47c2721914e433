// The add/edit form of an archive as plain data: what it starts from, what it checks before sending
// (the domain's rules, the same the server applies), and the request body it becomes.
import {
  ARCHIVE_NAME_MAX,
  ARCHIVE_POLL_DEFAULT_SECONDS,
  ARCHIVE_POLL_MAX_SECONDS,
  ARCHIVE_POLL_MIN_SECONDS,
  archiveSettingsProblems,
  archiveUrlProblem,
  type TCreateArchiveBody,
  type TPacsArchive,
  type TPacsArchiveKind,
  type TPacsAuthKind,
  type TUpdateArchiveBody,
  SECRET_GIVEN_AGAIN,
  secretMayFollow,
} from '@ris/domain';

export interface TArchiveDraft {
  name: string;
  kind: TPacsArchiveKind;
  dicomweb_url: string;
  orthanc_url: string;
  auth_kind: TPacsAuthKind;
  username: string;
  /** Empty on an archive with a stored secret: keep it. */
  secret: string;
  /** Facility id → DICOM institution name ('' = compare with the facility's name). */
  facilities: { facility_id: string; institution_name: string }[];
  default_facility_id: string;
  poll_interval_seconds: string;
  enabled: boolean;
}

export type TArchiveField =
  | 'name'
  | 'kind'
  | 'dicomweb_url'
  | 'orthanc_url'
  | 'auth_kind'
  | 'username'
  | 'secret'
  | 'facilities'
  | 'default_facility_id'
  | 'poll_interval_seconds'
  | 'enabled';

export const ARCHIVE_FIELDS: readonly TArchiveField[] = [
  'name',
  'kind',
  'dicomweb_url',
  'orthanc_url',
  'auth_kind',
  'username',
  'secret',
  'facilities',
  'default_facility_id',
  'poll_interval_seconds',
  'enabled',
];

export function draftOf(archive: TPacsArchive | null): TArchiveDraft {
  if (!archive)
    return {
      name: '',
      kind: 'orthanc',
      dicomweb_url: '',
      orthanc_url: '',
      auth_kind: 'basic',
      username: '',
      secret: '',
      facilities: [],
      default_facility_id: '',
      poll_interval_seconds: String(ARCHIVE_POLL_DEFAULT_SECONDS),
      enabled: true,
    };
  return {
    name: archive.name,
    kind: archive.kind,
    dicomweb_url: archive.dicomweb_url,
    orthanc_url: archive.orthanc_url ?? '',
    auth_kind: archive.auth_kind,
    username: archive.username ?? '',
    secret: '',
    facilities: archive.facilities.map((facility) => ({
      facility_id: facility.facility_id,
      institution_name: facility.institution_name ?? '',
    })),
    default_facility_id: archive.default_facility_id ?? '',
    poll_interval_seconds: String(archive.poll_interval_seconds),
    enabled: archive.enabled,
  };
}

/** Whether the stored secret stays: an archive that has one, the same kind of credentials, none typed. */
export function keepsSecret(draft: TArchiveDraft, archive: TPacsArchive | null): boolean {
  return (
    archive !== null && archive.has_secret && archive.auth_kind === draft.auth_kind && draft.secret === ''
  );
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The checks made before sending (the server makes them all again). */
export function checkDraft(
  draft: TArchiveDraft,
  archive: TPacsArchive | null,
): Partial<Record<TArchiveField, string>> {
  const errors: Partial<Record<TArchiveField, string>> = {};
  const name = draft.name.trim();
  if (name === '') errors.name = 'Name is required';
  else if (name.length > ARCHIVE_NAME_MAX) errors.name = `At most ${ARCHIVE_NAME_MAX} characters`;
  const dicomweb = draft.dicomweb_url.trim();
  if (dicomweb === '') errors.dicomweb_url = 'The DICOMweb URL is required';
  else {
    const problem = archiveUrlProblem(dicomweb);
    if (problem) errors.dicomweb_url = capitalise(problem);
  }
  const orthanc = draft.orthanc_url.trim();
  if (draft.kind === 'orthanc' && orthanc !== '') {
    const problem = archiveUrlProblem(orthanc);
    if (problem) errors.orthanc_url = capitalise(problem);
  }
  const poll = Number(draft.poll_interval_seconds);
  if (!Number.isInteger(poll) || poll < ARCHIVE_POLL_MIN_SECONDS || poll > ARCHIVE_POLL_MAX_SECONDS)
    errors.poll_interval_seconds = `Between ${ARCHIVE_POLL_MIN_SECONDS} and ${ARCHIVE_POLL_MAX_SECONDS} seconds`;
  for (const problem of archiveSettingsProblems({
    kind: draft.kind,
    orthanc_url: draft.kind === 'orthanc' ? orthanc || null : null,
    auth_kind: draft.auth_kind,
    username: draft.username.trim() || null,
    has_secret: draft.secret !== '' || keepsSecret(draft, archive),
    facility_ids: draft.facilities.map((facility) => facility.facility_id),
    default_facility_id: draft.default_facility_id || null,
  })) {
    const field = problem.field as TArchiveField;
    errors[field] ??= capitalise(problem.message);
  }
  const addresses = [dicomweb, draft.kind === 'orthanc' ? orthanc || null : null];
  const before = archive ? [archive.dicomweb_url, archive.orthanc_url] : [];
  if (keepsSecret(draft, archive) && !secretMayFollow(before, addresses))
    errors.secret ??= `The password or token ${SECRET_GIVEN_AGAIN}`;
  return errors;
}

/** The body of POST /pacs/archives (a new archive) or PUT /pacs/archives/{id} (the whole form). */
export function archiveBody(
  draft: TArchiveDraft,
  archive: TPacsArchive | null,
): TCreateArchiveBody & TUpdateArchiveBody {
  const credentials = draft.auth_kind !== 'none';
  return {
    name: draft.name.trim(),
    kind: draft.kind,
    dicomweb_url: draft.dicomweb_url.trim(),
    orthanc_url: draft.kind === 'orthanc' ? draft.orthanc_url.trim() || null : null,
    auth_kind: draft.auth_kind,
    username: draft.auth_kind === 'basic' ? draft.username.trim() || null : null,
    // Left out: the stored secret stays (PUT); a new one replaces it.
    ...(credentials && !keepsSecret(draft, archive) ? { secret: draft.secret } : {}),
    facilities: draft.facilities.map((facility) => ({
      facility_id: facility.facility_id,
      institution_name: facility.institution_name.trim() || null,
    })),
    default_facility_id: draft.default_facility_id || null,
    enabled: draft.enabled,
    poll_interval_seconds: Number(draft.poll_interval_seconds),
  };
}
