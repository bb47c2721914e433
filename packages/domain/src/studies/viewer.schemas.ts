// The zod schemas of ./viewers.ts, apart from its constants: a screen that needs only the constants (the
// sign-in page) loads no zod.
import { z } from 'zod';
import { DEFAULT_VIEWER, DICOM_UID_MAX_LENGTH, DICOM_UID_PATTERN, VIEWERS } from './viewers.ts';

export const ZViewer = z.enum(VIEWERS);

export const ZDicomUid = z
  .string()
  .max(DICOM_UID_MAX_LENGTH, `must be a DICOM UID of at most ${DICOM_UID_MAX_LENGTH} characters`)
  .regex(DICOM_UID_PATTERN, 'must be a DICOM UID (digits separated by dots)');

/** GET /dicom/viewer: which study to open in which viewer. */
export const ZViewerQuery = z.object({
  study_iuid: ZDicomUid,
  viewer_type: ZViewer.default(DEFAULT_VIEWER),
  /**
   * The address of the facility's own image node when this workstation reaches it (spec §7): an
   * OHIF link then goes to that node. Any other value is ignored.
   */
  local_ip: z.string().max(255).optional(),
});
export type TViewerQuery = z.infer<typeof ZViewerQuery>;

/** The link that opens the study: http(s) for web viewers, the viewer's own scheme for desktop ones. */
export const ZViewerLink = z.object({
  url: z.string(),
  viewer_type: ZViewer,
  /**
   * OHIF links of a study whose facility has its own image node: where that node listens. A client
   * that reaches it (spec §7: 1 s) asks again with local_ip = host and gets the node's link.
   */
  local_node: z.object({ host: z.string(), port: z.number().int() }).optional(),
});
export type TViewerLink = z.infer<typeof ZViewerLink>;
