// The report editor's document model, shared by the web editor and the server (sanitiser allow-list,
// Yjs ↔ HTML conversion for collaboration). Anything the editor can produce is defined here once.
// Every attribute the schema renders is coerced to a known keyword or a bounded integer (text-align,
// table cells, ordered lists) and images render only report image paths: a collaborator's Yjs update
// bypasses parsing, so rendering is where the document model stays safe for every viewer.
import type { Extensions } from '@tiptap/core';
import { TableRow } from '@tiptap/extension-table';
import StarterKit from '@tiptap/starter-kit';
import { ReportOrderedList } from './ordered-list.ts';
import { PageBreak } from './page-break.ts';
import { ReportImage } from './report-image.ts';
import { ReportTable, ReportTableCell, ReportTableHeader } from './report-table.ts';
import { ReportTextAlign, TEXT_ALIGNMENTS } from './text-align.ts';

export { PageBreak } from './page-break.ts';
export { REPORT_IMAGE_SRC, reportIdOfImageSrc, reportImageSrc } from './report-image.ts';
export { TEXT_ALIGNMENTS, textAlignment } from './text-align.ts';

/** The Yjs fragment that holds a report's document (Hocuspocus document name `report.{id}`). */
export const REPORT_FRAGMENT = 'default';

/** Hocuspocus document name of a report. */
export function reportDocumentName(reportId: string): string {
  return `report.${reportId}`;
}

export interface ReportExtensionOptions {
  /** With collaboration the Yjs undo manager replaces the editor's own history. */
  collaboration?: boolean;
}

/** The report editor's extensions: headings, marks, lists, tables, images, alignment, page breaks. */
export function reportExtensions(options: ReportExtensionOptions = {}): Extensions {
  return [
    StarterKit.configure({
      heading: { levels: [1, 2, 3] },
      code: false,
      codeBlock: false,
      link: false,
      orderedList: false,
      ...(options.collaboration ? { undoRedo: false } : {}),
    }),
    ReportOrderedList,
    ReportTable.configure({ resizable: false }),
    ReportTableCell,
    ReportTableHeader,
    TableRow,
    ReportImage.configure({ inline: false, allowBase64: false }),
    ReportTextAlign.configure({ types: ['heading', 'paragraph'], alignments: [...TEXT_ALIGNMENTS] }),
    PageBreak,
  ];
}
