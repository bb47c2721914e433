// The study images calls of spec §7 beside the viewer: the study's zip download (a signed,
// short-lived URL), its deletion from the archive, and its series with thumbnails for the reporting
// screen. UIDs are DICOM UIDs (digits and dots, at most 64 characters).
import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';
import { ZDicomUid } from '../studies/viewer.schemas.ts';

/** How long a study zip URL works after it is made (a browser starts the download at once). */
export const DICOM_ZIP_URL_TTL_SECONDS = 300;

/** GET /dicom/get-dicom-zip-url and GET /dicom/series: which study. */
export const ZStudyUidQuery = z.object({ study_uid: ZDicomUid });
export type TStudyUidQuery = z.infer<typeof ZStudyUidQuery>;

/** The signed URL of a study's zip: follow it (no bearer token needed) before `expires_at`. */
export const ZDicomZipUrl = z.object({
  /** Absolute path on this server (/api/v1/dicom/zip/...), usable as a plain link. */
  url: z.string(),
  expires_at: z.string().describe('ISO 8601 instant after which the URL is refused'),
});
export type TDicomZipUrl = z.infer<typeof ZDicomZipUrl>;

/** The query of a signed zip URL: who it was made for, until when, and the signature over both and the study. */
export const ZDicomZipLinkQuery = z.object({
  uid: ZUuid,
  expires: z.coerce.number().int().positive(),
  signature: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hexadecimal characters'),
});
export type TDicomZipLinkQuery = z.infer<typeof ZDicomZipLinkQuery>;

/** DELETE /dicom/delete-study (spec §7: study_uid, by_user_id). */
export const ZDeleteStudyQuery = z.object({ study_uid: ZDicomUid, by_user_id: ZUuid.optional() });
export type TDeleteStudyQuery = z.infer<typeof ZDeleteStudyQuery>;

/** What the delete did: the worklist items of the study now DELETED, and when the archive let it go. */
export const ZDeletedStudy = z.object({
  study_uid: z.string(),
  worklist_ids: z.array(z.string()),
  archive_deleted_at: z.string(),
});
export type TDeletedStudy = z.infer<typeof ZDeletedStudy>;

/** One series of a study, as the archive's QIDO-RS describes it. */
export const ZDicomSeries = z.object({
  series_uid: z.string(),
  modality: z.string().nullable(),
  description: z.string().nullable(),
  number: z.number().nullable(),
  instance_count: z.number().nullable(),
});
export type TDicomSeries = z.infer<typeof ZDicomSeries>;
export const ZDicomSeriesList = z.array(ZDicomSeries);

/** GET /dicom/series-thumbnail: one series of one study. */
export const ZSeriesThumbnailQuery = z.object({ study_uid: ZDicomUid, series_uid: ZDicomUid });
export type TSeriesThumbnailQuery = z.infer<typeof ZSeriesThumbnailQuery>;
