import type { TViewer } from '@ris/domain';

/** What a viewer link is built from besides the study. */
export type TLinkContext = {
  /** An external OHIF (VIEWER_OHIF_URL), or null for the built-in one at /viewer/. */
  ohifUrl: string | null;
  /** The RIS's public URL (no trailing slash): the built-in viewer and the DICOMweb proxy are there. */
  publicUrl: string;
  /** A fresh signed pass for this user and study (features/viewers/viewer-passes.ts). */
  pass: (kind: 'ticket' | 'weasis') => string;
};

type TRecipe = {
  /** True when the link reads the images through the RIS's DICOMweb proxy (an archive must hold them). */
  throughProxy: (context: TLinkContext) => boolean;
  link: (uid: string, context: TLinkContext) => string;
};

/**
 * How each viewer opens a study (the study UID is already validated as digits and dots; it is still
 * encoded so a link never depends on that):
 * - OHIF: the built-in viewer through /viewer/open with a ticket (it becomes the tab's cookie for the
 *   DICOMweb proxy), or, with VIEWER_OHIF_URL, that OHIF's study route `…/viewer?StudyInstanceUIDs=<uid>`.
 * - Weasis: the `weasis://` protocol with a URL-encoded `$dicom:rs` command that queries the RIS's
 *   DICOMweb proxy with a study-bound pass in its path (Weasis sends no cookie).
 * - Horos: its OsiriX-compatible URL scheme, `displayStudy` by StudyInstanceUID.
 * - RadiAnt: its URL protocol, the `-pstv 0020000D <uid>` command line (search the PACS by Study
 *   Instance UID) as repeated n/v pairs.
 */
export const VIEWER_RECIPES: Record<TViewer, TRecipe> = {
  ohif: {
    throughProxy: (context) => context.ohifUrl === null,
    link: (uid, context) =>
      context.ohifUrl === null
        ? `${context.publicUrl}/viewer/open?ticket=${encodeURIComponent(context.pass('ticket'))}`
        : `${context.ohifUrl}/viewer?StudyInstanceUIDs=${encodeURIComponent(uid)}`,
  },
  weasis: {
    throughProxy: () => true,
    link: (uid, context) =>
      `weasis://${encodeURIComponent(
        `$dicom:rs --url "${context.publicUrl}/dicom-web/t/${context.pass('weasis')}" -r "studyUID=${uid}"`,
      )}`,
  },
  horos: {
    throughProxy: () => false,
    link: (uid) => `horos://?methodName=displayStudy&StudyInstanceUID=${encodeURIComponent(uid)}`,
  },
  radiant: {
    throughProxy: () => false,
    link: (uid) => `radiant://?n=pstv&v=0020000D&v=${encodeURIComponent(uid)}`,
  },
};

/** True when the viewer reads the images through the RIS's DICOMweb proxy. */
export function readsThroughProxy(viewer: TViewer, context: TLinkContext): boolean {
  return VIEWER_RECIPES[viewer].throughProxy(context);
}

/** The link that opens a study in a viewer. */
export function viewerUrl(viewer: TViewer, studyUid: string, context: TLinkContext): string {
  return VIEWER_RECIPES[viewer].link(studyUid, context);
}
