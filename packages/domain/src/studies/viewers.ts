import { z } from 'zod';

/** External DICOM viewers a study can be opened in. */
export const VIEWERS = ['ohif', 'weasis', 'horos', 'radiant'] as const;
export type TViewer = (typeof VIEWERS)[number];
export const ZViewer = z.enum(VIEWERS);

export const DEFAULT_VIEWER: TViewer = 'ohif';

/** Product names as their makers write them. */
export const VIEWER_LABELS = {
  ohif: 'OHIF',
  weasis: 'Weasis',
  horos: 'Horos',
  radiant: 'RadiAnt',
} as const satisfies Record<TViewer, string>;

/** Port of the viewer helper on the user's own machine, which hands out an access token. */
export const LOCAL_VIEWER_PORT = 8843;
/** Port probed to find out whether a host is reachable, and how long the probe may take. */
export const REACHABILITY_CHECK_PORT = 8443;
export const REACHABILITY_CHECK_TIMEOUT_MS = 1_000;

/** A DICOM UID (PS3.5 §9.1): digits and dots, at most 64 characters. */
export const DICOM_UID_MAX_LENGTH = 64;
export const ZDicomUid = z
  .string()
  .max(DICOM_UID_MAX_LENGTH, `must be a DICOM UID of at most ${DICOM_UID_MAX_LENGTH} characters`)
  .regex(/^[0-9]+(\.[0-9]+)*$/, 'must be a DICOM UID (digits separated by dots)');

/** GET /dicom/viewer: which study to open in which viewer. */
export const ZViewerQuery = z.object({
  study_iuid: ZDicomUid,
  viewer_type: ZViewer.default(DEFAULT_VIEWER),
  /**
   * The address of a viewer helper on the user's machine (spec §7). Accepted and ignored: a local
   * viewer server is outside this product, so the link never depends on it.
   */
  local_ip: z.string().max(255).optional(),
});
export type TViewerQuery = z.infer<typeof ZViewerQuery>;

/** The link that opens the study: http(s) for web viewers, the viewer's own scheme for desktop ones. */
export const ZViewerLink = z.object({ url: z.string(), viewer_type: ZViewer });
export type TViewerLink = z.infer<typeof ZViewerLink>;
