/** External DICOM viewers a study can be opened in. */
export const VIEWERS = ['ohif', 'weasis', 'horos', 'radiant'] as const;
export type TViewer = (typeof VIEWERS)[number];

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
/** A DICOM UID: digits separated by dots (PS3.5 9.1), at most DICOM_UID_MAX_LENGTH characters. */
export const DICOM_UID_PATTERN = /^[0-9]+(\.[0-9]+)*$/;

/** Whether a value is a DICOM UID (the form and the length). */
export function isDicomUid(value: string): boolean {
  return value.length <= DICOM_UID_MAX_LENGTH && DICOM_UID_PATTERN.test(value);
}
