// The parts of the DOCX around the body: patient/study block, title, signatures, addenda.
import type { TSignaturePlacement } from '@ris/domain';
import { AlignmentType, BorderStyle, ImageRun, Paragraph, Table, TableCell, TableRow, WidthType } from 'docx';
import { imagePixelSize, shrinkBox } from '../image-size.ts';
import {
  ADDENDA_HEADING,
  patientFields,
  SIGNATURE_BLOCK_WIDTH,
  SIGNATURE_GAP,
  SIGNATURE_IMAGE_MAX_HEIGHT,
  SIGNATURE_IMAGE_WIDTH,
  signaturesPerRow,
} from '../page-layout.ts';
import type { TAddendumBlock, TPatientBlock, TSignatureBlock } from '../report-document.ts';
import { parseReportHtml } from '../report-tree.ts';
import {
  docxBlocks,
  docxRuns,
  POINT_TO_PIXEL,
  TWIP,
  type TDocxContext,
  type TDocxElement,
} from './docx-body.ts';

const LABEL_COLOR = '555555';
const RULE = { style: BorderStyle.SINGLE, size: 4, color: 'BDBDBD' } as const;
const NONE = { style: BorderStyle.NONE, size: 0, color: 'FFFFFF' } as const;
const NO_BORDERS = {
  top: NONE,
  bottom: NONE,
  left: NONE,
  right: NONE,
  insideHorizontal: NONE,
  insideVertical: NONE,
};
const PLACEMENT_ALIGNMENT = {
  left: AlignmentType.LEFT,
  center: AlignmentType.CENTER,
  right: AlignmentType.RIGHT,
} as const;
const PATIENT_SHARES = [0.19, 0.31, 0.19, 0.31];

export function docxPatientBlock(context: TDocxContext, patient: TPatientBlock): TDocxElement[] {
  const fields = patientFields(patient);
  const widthTwips = Math.round(context.width * TWIP);
  const widths = PATIENT_SHARES.map((share) => Math.round(share * widthTwips));
  const rows: TableRow[] = [];
  for (let i = 0; i < fields.length; i += 2) {
    const cells: TableCell[] = [];
    [fields[i], fields[i + 1]].forEach((field, pair) => {
      const [label, value] = field ?? ['', ''];
      cells.push(
        new TableCell({
          width: { size: widths[pair * 2] ?? 0, type: WidthType.DXA },
          children: [
            new Paragraph({
              children: docxRuns(label, { size: context.fontSize * 0.82, color: LABEL_COLOR }),
              spacing: { after: 0 },
            }),
          ],
        }),
        new TableCell({
          width: { size: widths[pair * 2 + 1] ?? 0, type: WidthType.DXA },
          children: [
            new Paragraph({
              children: docxRuns(value === '' ? '—' : value, { bold: label === 'Patient name' }),
              spacing: { after: 0 },
            }),
          ],
        }),
      );
    });
    rows.push(new TableRow({ children: cells, cantSplit: true }));
  }
  return [
    new Table({
      rows,
      width: { size: widthTwips, type: WidthType.DXA },
      columnWidths: widths,
      borders: {
        top: RULE,
        bottom: RULE,
        left: RULE,
        right: RULE,
        insideHorizontal: RULE,
        insideVertical: NONE,
      },
      margins: { left: 100, right: 80, top: 40, bottom: 20 },
    }),
    new Paragraph({ children: [], spacing: { after: Math.round(context.fontSize * 0.6 * TWIP) } }),
  ];
}

export function docxTitle(context: TDocxContext, title: string, size: number): Paragraph {
  return new Paragraph({
    children: docxRuns(title, { bold: true, size }),
    alignment: AlignmentType.CENTER,
    spacing: { after: Math.round(context.fontSize * TWIP) },
  });
}

function signatureParagraphs(
  context: TDocxContext,
  signature: TSignatureBlock,
  placement: TSignaturePlacement,
): Paragraph[] {
  const { fontSize } = context;
  const alignment = PLACEMENT_ALIGNMENT[placement];
  // Each line keeps with the next, so a signature never splits across pages.
  const line = (children: Array<ImageRun | ReturnType<typeof docxRuns>[number]>, after = 0) =>
    new Paragraph({ children, alignment, keepNext: true, keepLines: true, spacing: { after } });
  const paragraphs: Paragraph[] = [];
  const size = signature.image ? imagePixelSize(signature.image) : null;
  if (signature.image && size) {
    const box = shrinkBox(
      { width: SIGNATURE_IMAGE_WIDTH, height: (SIGNATURE_IMAGE_WIDTH * size.height) / size.width },
      SIGNATURE_IMAGE_WIDTH,
      SIGNATURE_IMAGE_MAX_HEIGHT,
    );
    paragraphs.push(
      line([
        new ImageRun({
          type: signature.image.mediaType === 'image/png' ? 'png' : 'jpg',
          data: context.media.standIn(signature.image.data),
          transformation: {
            width: Math.round(box.width * POINT_TO_PIXEL),
            height: Math.round(box.height * POINT_TO_PIXEL),
          },
        }),
      ]),
    );
  } else {
    paragraphs.push(
      new Paragraph({
        children: [],
        keepNext: true,
        spacing: { before: Math.round(SIGNATURE_IMAGE_MAX_HEIGHT * 0.6 * TWIP), after: 0 },
      }),
    );
  }
  paragraphs.push(line(docxRuns(signature.displayName, { bold: true })));
  for (const text of (signature.description ?? '').split(/\r?\n/)) {
    if (text.trim() !== '')
      paragraphs.push(line(docxRuns(text.trim(), { size: fontSize * 0.9, color: '333333' })));
  }
  if (signature.signedNote)
    paragraphs.push(line(docxRuns(signature.signedNote, { size: fontSize * 0.78, color: LABEL_COLOR })));
  return paragraphs;
}

/** Signature blocks side by side in a borderless table on the placement's side, kept together. */
export function docxSignatures(
  context: TDocxContext,
  signatures: readonly TSignatureBlock[],
  placement: TSignaturePlacement,
): TDocxElement[] {
  if (signatures.length === 0) return [];
  const perRow = Math.min(signaturesPerRow(context.width), signatures.length);
  const cellWidth = Math.round((SIGNATURE_BLOCK_WIDTH + SIGNATURE_GAP) * TWIP);
  const rows: TableRow[] = [];
  for (let i = 0; i < signatures.length; i += perRow) {
    const group = signatures.slice(i, i + perRow);
    const cells = group.map(
      (signature) =>
        new TableCell({
          width: { size: cellWidth, type: WidthType.DXA },
          children: signatureParagraphs(context, signature, placement),
        }),
    );
    // Rows of the last group are padded so every row has the same columns.
    while (cells.length < perRow)
      cells.push(
        new TableCell({ width: { size: cellWidth, type: WidthType.DXA }, children: [new Paragraph({})] }),
      );
    rows.push(new TableRow({ children: cells, cantSplit: true }));
  }
  return [
    new Paragraph({
      children: [],
      keepNext: true,
      spacing: { before: Math.round(context.fontSize * 1.2 * TWIP), after: 0 },
    }),
    new Table({
      rows,
      width: { size: cellWidth * perRow, type: WidthType.DXA },
      columnWidths: Array.from({ length: perRow }, () => cellWidth),
      borders: NO_BORDERS,
      alignment: PLACEMENT_ALIGNMENT[placement],
    }),
    new Paragraph({ children: [], spacing: { after: 0 } }),
  ];
}

export function docxAddenda(context: TDocxContext, addenda: readonly TAddendumBlock[]): TDocxElement[] {
  if (addenda.length === 0) return [];
  const elements: TDocxElement[] = [
    new Paragraph({ children: docxRuns(ADDENDA_HEADING), style: 'Heading2' }),
  ];
  for (const addendum of addenda) {
    elements.push(new Paragraph({ children: docxRuns(addendum.heading), style: 'Heading3' }));
    elements.push(...docxBlocks(context, parseReportHtml(addendum.html)));
  }
  return elements;
}
