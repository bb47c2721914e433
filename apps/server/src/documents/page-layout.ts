// Page geometry and fixed wording shared by the PDF and DOCX renderers, so both put the letterhead,
// body and footer in the same places (points; 1 pt = 1/72 in).
import type { TReportStyle } from '@ris/domain';
import type { TPatientBlock } from './report-document.ts';

export const MM = 72 / 25.4;
/** A4 portrait in points. */
export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;
/** CSS pixels (the editor's image and column widths) to points. */
export const PX = 0.75;
/**
 * Noto Sans' own line height (ascender + descender, em). PDF and DOCX both scale a font's natural
 * line height, so the style's line height (a multiple of the font size, as in CSS) is divided by it.
 */
export const NOTO_SANS_LINE_HEIGHT = 1.362;

export const PRELIMINARY_MARK = 'PRELIMINARY — NOT FINAL';
export const ADDENDA_HEADING = 'Addenda';
/** Width of a signature image. */
export const SIGNATURE_IMAGE_WIDTH = 40 * MM;
export const SIGNATURE_IMAGE_MAX_HEIGHT = 18 * MM;
/** Width of one signature block (several sit side by side when they fit). */
export const SIGNATURE_BLOCK_WIDTH = 62 * MM;

export type TPageLayout = {
  headerHeight: number;
  footerHeight: number;
  /** Body margins: the letterhead space plus the style's margins. */
  top: number;
  right: number;
  bottom: number;
  left: number;
  contentWidth: number;
  contentHeight: number;
};

export function pageLayout(style: TReportStyle): TPageLayout {
  const headerHeight = style.header_height_mm * MM;
  const footerHeight = style.footer_height_mm * MM;
  const top = headerHeight + style.margins_mm.top * MM;
  const bottom = footerHeight + style.margins_mm.bottom * MM;
  const left = style.margins_mm.left * MM;
  const right = style.margins_mm.right * MM;
  return {
    headerHeight,
    footerHeight,
    top,
    right,
    bottom,
    left,
    contentWidth: PAGE_WIDTH - left - right,
    contentHeight: PAGE_HEIGHT - top - bottom,
  };
}

/** The patient/study block's label/value pairs, in reading order (two pairs per row). */
export function patientFields(patient: TPatientBlock): Array<[label: string, value: string]> {
  return [
    ['Patient name', patient.patientName],
    ['Patient ID', patient.patientId],
    ['Age / Sex', patient.ageSex],
    ['Modality', patient.modality],
    ['Study', patient.study],
    ['Accession no.', patient.accessionNumber],
    ['Study date', patient.studyDate],
    ['Report date', patient.reportDate],
    ['Referring physician', patient.referringPhysician],
    ['Facility', patient.facility],
  ];
}

/** "Page 3 of 7". */
export function pageLabel(page: number, pages: number): string {
  return `Page ${page} of ${pages}`;
}

/** Space between signature blocks side by side. */
export const SIGNATURE_GAP = 8;

/** Signature blocks per row in the content width (at least one). */
export function signaturesPerRow(contentWidth: number): number {
  return Math.max(1, Math.floor((contentWidth + SIGNATURE_GAP) / (SIGNATURE_BLOCK_WIDTH + SIGNATURE_GAP)));
}
