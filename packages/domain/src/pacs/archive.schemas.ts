// Image archives (PACS) an organisation's administrators configure (GET/POST/PUT/DELETE
// /pacs/archives, POST /pacs/archives/{id}/test). The password or token goes in, never out:
// responses only say whether one is stored (has_secret).
import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';

export const PACS_ARCHIVE_KINDS = ['orthanc', 'dicomweb'] as const;
/** 'orthanc' syncs from Orthanc's /changes feed (needs orthanc_url); 'dicomweb' polls QIDO-RS. */
export const ZPacsArchiveKind = z.enum(PACS_ARCHIVE_KINDS);
export type TPacsArchiveKind = z.infer<typeof ZPacsArchiveKind>;

export const PACS_AUTH_KINDS = ['none', 'basic', 'bearer'] as const;
export const ZPacsAuthKind = z.enum(PACS_AUTH_KINDS);
export type TPacsAuthKind = z.infer<typeof ZPacsAuthKind>;

export const ARCHIVE_NAME_MAX = 120;
export const ARCHIVE_POLL_MIN_SECONDS = 1;
export const ARCHIVE_POLL_MAX_SECONDS = 3600;
export const ARCHIVE_POLL_DEFAULT_SECONDS = 10;

/**
 * Why a URL cannot be an archive root, or null: http(s) only, and no user name or password in it
 * (credentials go in username and secret, where they are sealed; a URL is shown and logged).
 */
export function archiveUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http:// or https:// URL';
  if (url.username !== '' || url.password !== '')
    return 'must not contain a user name or password: put them in the credential fields';
  if (url.search !== '' || url.hash !== '') return 'must not have a query string or fragment';
  return null;
}

/** An archive root URL (DICOMweb or Orthanc REST), trailing slashes removed. */
export const ZArchiveUrl = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(2000)
  .superRefine((value, context) => {
    const problem = archiveUrlProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  })
  .transform((value) => value.replace(/\/+$/, ''));

/** One facility an archive serves; institution_name, when set, is the DICOM InstitutionName sent there. */
export const ZArchiveFacilityInput = z.object({
  facility_id: ZUuid,
  institution_name: z.string().trim().max(200).nullable().optional(),
});
export type TArchiveFacilityInput = z.infer<typeof ZArchiveFacilityInput>;

const ZArchiveName = z.string().trim().min(1, 'is required').max(ARCHIVE_NAME_MAX);
const ZUsername = z.string().trim().max(200).nullable();
/** A password (basic) or token (bearer); '' on update clears the stored one. */
const ZSecret = z.string().max(4000);
const ZFacilities = z
  .array(ZArchiveFacilityInput)
  .max(500)
  .refine((list) => new Set(list.map((f) => f.facility_id)).size === list.length, 'lists a facility twice');
const ZPollInterval = z.number().int().min(ARCHIVE_POLL_MIN_SECONDS).max(ARCHIVE_POLL_MAX_SECONDS);

/** POST /pacs/archives. */
export const ZCreateArchiveBody = z.object({
  name: ZArchiveName,
  kind: ZPacsArchiveKind,
  dicomweb_url: ZArchiveUrl,
  orthanc_url: ZArchiveUrl.nullable().optional(),
  auth_kind: ZPacsAuthKind.default('none'),
  username: ZUsername.optional(),
  secret: ZSecret.optional(),
  facilities: ZFacilities.default([]),
  default_facility_id: ZUuid.nullable().optional(),
  enabled: z.boolean().default(true),
  poll_interval_seconds: ZPollInterval.default(ARCHIVE_POLL_DEFAULT_SECONDS),
});
export type TCreateArchiveBody = z.infer<typeof ZCreateArchiveBody>;

/**
 * PUT /pacs/archives/{id}: the fields given change. secret: omitted keeps the stored one, '' clears
 * it, any other text replaces it; auth_kind 'none' clears the credentials. facilities, when given,
 * is the whole new list.
 */
export const ZUpdateArchiveBody = z.object({
  name: ZArchiveName.optional(),
  kind: ZPacsArchiveKind.optional(),
  dicomweb_url: ZArchiveUrl.optional(),
  orthanc_url: ZArchiveUrl.nullable().optional(),
  auth_kind: ZPacsAuthKind.optional(),
  username: ZUsername.optional(),
  secret: ZSecret.optional(),
  facilities: ZFacilities.optional(),
  default_facility_id: ZUuid.nullable().optional(),
  enabled: z.boolean().optional(),
  poll_interval_seconds: ZPollInterval.optional(),
});
export type TUpdateArchiveBody = z.infer<typeof ZUpdateArchiveBody>;

/** The settings an archive ends up with after a create or an update, checked as a whole. */
export type TArchiveSettings = {
  kind: TPacsArchiveKind;
  orthanc_url: string | null;
  auth_kind: TPacsAuthKind;
  username: string | null;
  /** Whether a secret will be stored (a new one, or the kept one). */
  has_secret: boolean;
  facility_ids: readonly string[];
  default_facility_id: string | null;
};

export type TArchiveSettingsProblem = { field: string; message: string };

/**
 * The rules that tie fields together (the server answers 400 naming the first; the form shows them
 * all before sending). Each field's own format is checked by the schemas above.
 */
export function archiveSettingsProblems(settings: TArchiveSettings): TArchiveSettingsProblem[] {
  const problems: TArchiveSettingsProblem[] = [];
  if (settings.kind === 'orthanc' && !settings.orthanc_url)
    problems.push({ field: 'orthanc_url', message: 'is required for an Orthanc archive' });
  if (settings.auth_kind === 'basic' && !settings.username)
    problems.push({ field: 'username', message: 'is required for basic authentication' });
  if (settings.auth_kind !== 'none' && !settings.has_secret)
    problems.push({
      field: 'secret',
      message:
        settings.auth_kind === 'basic'
          ? 'a password is required for basic authentication'
          : 'a token is required',
    });
  if (settings.default_facility_id && !settings.facility_ids.includes(settings.default_facility_id))
    problems.push({
      field: 'default_facility_id',
      message: 'must be one of the facilities the archive serves',
    });
  return problems;
}

/** Where the archive's sync stands (kept up by the sync jobs; shown on the admin screen). */
export const ZArchiveSyncState = z.object({
  last_sync_at: z.string().nullable(),
  last_success_at: z.string().nullable(),
  last_error: z.string().nullable(),
  last_error_at: z.string().nullable(),
  /** Consecutive failed syncs (0 after a success). */
  failure_count: z.number().int(),
  /** Orthanc: the last /changes sequence applied. */
  changes_cursor: z.number().int().nullable(),
  /** DICOMweb: studies up to this time were polled. */
  polled_until: z.string().nullable(),
});
export type TArchiveSyncState = z.infer<typeof ZArchiveSyncState>;

/** One archive as its administrators see it: everything but the secret, which is only has_secret. */
export const ZPacsArchive = z.object({
  id: ZUuid,
  name: z.string(),
  kind: ZPacsArchiveKind,
  dicomweb_url: z.string(),
  orthanc_url: z.string().nullable(),
  auth_kind: ZPacsAuthKind,
  username: z.string().nullable(),
  has_secret: z.boolean(),
  facilities: z.array(
    z.object({ facility_id: ZUuid, facility_name: z.string(), institution_name: z.string().nullable() }),
  ),
  default_facility_id: ZUuid.nullable(),
  enabled: z.boolean(),
  poll_interval_seconds: z.number().int(),
  sync: ZArchiveSyncState,
  created_at: z.string(),
  updated_at: z.string(),
});
export type TPacsArchive = z.infer<typeof ZPacsArchive>;

/** GET /pacs/archives. */
export const ZPacsArchiveList = z.object({ archives: z.array(ZPacsArchive) });
export type TPacsArchiveList = z.infer<typeof ZPacsArchiveList>;

/** One call made by a connection test. */
export const ZArchiveCheck = z.object({
  /** Which root was called. */
  target: z.enum(['dicomweb', 'orthanc']),
  url: z.string(),
  ok: z.boolean(),
  /** The HTTP status, null when no answer came. */
  status: z.number().int().nullable(),
  message: z.string(),
});
export type TArchiveCheck = z.infer<typeof ZArchiveCheck>;

/** POST /pacs/archives/{id}/test: the archive called now. A failure is ok:false, never an error status. */
export const ZArchiveTestResult = z.object({
  ok: z.boolean(),
  message: z.string(),
  details: z.object({
    checks: z.array(ZArchiveCheck),
    /** Orthanc's version (GET /system), when it answered. */
    orthanc_version: z.string().nullable(),
    elapsed_ms: z.number().int(),
  }),
});
export type TArchiveTestResult = z.infer<typeof ZArchiveTestResult>;

/** POST /pacs/archives/{id}/test query: how long to wait for each answer (default 10 s). */
export const ZArchiveTestQuery = z.object({
  timeout_seconds: z.coerce.number().int().min(1).max(30).default(10),
});
