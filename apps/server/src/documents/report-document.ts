// The input of report rendering: everything a PDF or DOCX of one report shows, already loaded and
// checked. features/report-output builds it from the database; documents/ turns it into files and
// never touches the database itself.
import type { TReportStyle } from '@ris/domain';

/** An image's bytes with its media type (PNG or JPEG, checked by content when it was stored). */
export type TDocumentImage = { data: Buffer; mediaType: 'image/png' | 'image/jpeg' };

/** The patient/study block at the top of the first page; strings are display-ready (dates formatted). */
export type TPatientBlock = {
  patientName: string;
  patientId: string;
  /** e.g. "42 Y / F", "7 M / M" or "— / F"; built by the loader from birth date and sex. */
  ageSex: string;
  modality: string;
  study: string;
  accessionNumber: string;
  /** Study date-time in the facility's time zone, saying which, e.g. "21 Nov 2026, 14:05 GMT+5:30". */
  studyDate: string;
  /** Date-time of the report (finalized, else last saved). */
  reportDate: string;
  referringPhysician: string;
  facility: string;
};

/** One signing radiologist under the report body. */
export type TSignatureBlock = {
  displayName: string;
  /** The radiologist's description / qualification lines (e.g. "MD Radiology, Reg. No. 1234"). */
  description: string | null;
  image: TDocumentImage | null;
  /** "Electronically signed 21 Nov 2026, 14:05 GMT+5:30", or null when the report is not signed yet. */
  signedNote: string | null;
};

export type TAddendumBlock = {
  /** Sanitised HTML of the addendum. */
  html: string;
  /** "Addendum 1 — Dr A. Rao, 22 Nov 2026, 09:10". */
  heading: string;
};

/**
 * With `letterhead`: the facility's header and footer images are drawn on every page inside the
 * style's header/footer heights (an image may be missing: that space stays blank). With `blank`: the
 * same space is left empty for pre-printed paper.
 */
export type TLetterhead =
  { mode: 'letterhead'; header: TDocumentImage | null; footer: TDocumentImage | null } | { mode: 'blank' };

export type TReportDocumentInput = {
  /** Shown above the body, e.g. "CT BRAIN PLAIN — REPORT"; null: none. */
  title: string | null;
  patient: TPatientBlock;
  /** The report body: sanitised report HTML (the editor's allow-list, see @ris/editor). */
  bodyHtml: string;
  /**
   * Bytes of the key images the body references, keyed by the exact `src` attribute value in the HTML
   * (`/api/v1/worklist/report/{reportId}/images/{imageId}`). An <img> whose src is not here is left out.
   */
  images: ReadonlyMap<string, TDocumentImage>;
  signatures: readonly TSignatureBlock[];
  addenda: readonly TAddendumBlock[];
  letterhead: TLetterhead;
  /** Complete style (ZReportStyle parsed, defaults applied). */
  style: TReportStyle;
  /** Non-final reports carry a "PRELIMINARY — NOT FINAL" marking on every page. */
  final: boolean;
  /** Document metadata (PDF info / DOCX core properties). */
  meta: { title: string; author: string; createdAt: Date };
};
