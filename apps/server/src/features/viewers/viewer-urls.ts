import type { TViewer } from '@ris/domain';
import type { TConfig } from '../../config.ts';

type TViewerSettings = TConfig['viewers'];

/** A server setting a viewer's link is built from, and the environment variable that sets it. */
type TSetting = {
  variable: 'VIEWER_OHIF_URL' | 'PACS_DICOMWEB_URL';
  value: (settings: TViewerSettings) => string | null;
};

type TRecipe = {
  /** The setting the link needs; none for desktop viewers that find the study in their own PACS. */
  setting?: TSetting;
  /** The link for a study; `base` is the setting's value (empty when there is no setting). */
  link: (uid: string, base: string) => string;
};

const OHIF_URL: TSetting = { variable: 'VIEWER_OHIF_URL', value: (settings) => settings.ohifUrl };
const PACS_DICOMWEB_URL: TSetting = {
  variable: 'PACS_DICOMWEB_URL',
  value: (settings) => settings.dicomwebUrl,
};

/**
 * How each viewer opens a study (the study UID is already validated as digits and dots; it is still
 * encoded so a link never depends on that):
 * - OHIF: its study viewer route, `…/viewer?StudyInstanceUIDs=<uid>`.
 * - Weasis: the `weasis://` protocol with a URL-encoded `$dicom:rs` command that queries the archive's
 *   DICOMweb root for the study (Weasis documents the encoded form).
 * - Horos: its OsiriX-compatible URL scheme, `displayStudy` by StudyInstanceUID.
 * - RadiAnt: its URL protocol, the `-pstv 0020000D <uid>` command line (search the PACS by Study
 *   Instance UID) as repeated n/v pairs.
 */
export const VIEWER_RECIPES: Record<TViewer, TRecipe> = {
  ohif: {
    setting: OHIF_URL,
    link: (uid, base) => `${base}/viewer?StudyInstanceUIDs=${encodeURIComponent(uid)}`,
  },
  weasis: {
    setting: PACS_DICOMWEB_URL,
    link: (uid, base) => `weasis://${encodeURIComponent(`$dicom:rs --url "${base}" -r "studyUID=${uid}"`)}`,
  },
  horos: {
    link: (uid) => `horos://?methodName=displayStudy&StudyInstanceUID=${encodeURIComponent(uid)}`,
  },
  radiant: {
    link: (uid) => `radiant://?n=pstv&v=0020000D&v=${encodeURIComponent(uid)}`,
  },
};

export type TViewerUrl = { ok: true; url: string } | { ok: false; variable: TSetting['variable'] };

/** The link that opens a study in a viewer, or the variable that must be set first. */
export function viewerUrl(viewer: TViewer, studyUid: string, settings: TViewerSettings): TViewerUrl {
  const recipe = VIEWER_RECIPES[viewer];
  const base = recipe.setting ? recipe.setting.value(settings) : '';
  if (base === null && recipe.setting) return { ok: false, variable: recipe.setting.variable };
  return { ok: true, url: recipe.link(studyUid, base ?? '') };
}
