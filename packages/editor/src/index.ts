// The report editor's document model, shared by the web editor and the server (sanitiser allow-list,
// Yjs ↔ HTML conversion for collaboration). Anything the editor can produce is defined here once.
import type { Extensions } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import { TableKit } from '@tiptap/extension-table';
import TextAlign from '@tiptap/extension-text-align';
import StarterKit from '@tiptap/starter-kit';
import { PageBreak } from './page-break.ts';

export { PageBreak } from './page-break.ts';

/** The Yjs fragment that holds a report's document (Hocuspocus document name `report.{id}`). */
export const REPORT_FRAGMENT = 'default';

/** Hocuspocus document name of a report. */
export function reportDocumentName(reportId: string): string {
  return `report.${reportId}`;
}

/** Text alignments the editor offers (and the sanitiser keeps). */
export const TEXT_ALIGNMENTS = ['left', 'center', 'right', 'justify'] as const;

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
      ...(options.collaboration ? { undoRedo: false } : {}),
    }),
    TableKit.configure({ table: { resizable: false } }),
    Image.configure({ inline: false, allowBase64: false }),
    TextAlign.configure({ types: ['heading', 'paragraph'], alignments: [...TEXT_ALIGNMENTS] }),
    PageBreak,
  ];
}
