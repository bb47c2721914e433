// The parts of the PDF around the body: patient/study block, title, signatures, addenda.
import type { TPdfContent, TPdfTableLayout } from 'pdfmake';
import type { TSignaturePlacement } from '@ris/domain';
import { shrinkBox } from '../image-size.ts';
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
import { embedImage, pdfBlocks, pdfRuns, type TPdfContext } from './pdf-body.ts';

const LABEL_COLOR = '#555555';
const RULE_COLOR = '#bdbdbd';

const PATIENT_LAYOUT: TPdfTableLayout = {
  hLineWidth: (row, node) => (row === 0 || row === tableRowCount(node) ? 0.8 : 0.4),
  vLineWidth: (column) => (column === 0 || column === 4 ? 0.8 : 0),
  hLineColor: () => RULE_COLOR,
  vLineColor: () => RULE_COLOR,
  paddingLeft: (column) => (column % 2 === 0 ? 6 : 2),
  paddingRight: () => 4,
  paddingTop: () => 3,
  paddingBottom: () => 2,
};

function tableRowCount(node: unknown): number {
  const body = (node as { table?: { body?: unknown[] } }).table?.body;
  return Array.isArray(body) ? body.length : 0;
}

/** Label/value pairs, two per row: | label | value | label | value |. */
export function pdfPatientBlock(context: TPdfContext, patient: TPatientBlock): TPdfContent {
  const fields = patientFields(patient);
  const labelSize = context.fontSize * 0.82;
  const body: TPdfContent[][] = [];
  for (let i = 0; i < fields.length; i += 2) {
    const row: TPdfContent[] = [];
    for (const field of [fields[i], fields[i + 1]]) {
      if (!field) {
        row.push('', '');
        continue;
      }
      const [label, value] = field;
      row.push(
        {
          text: pdfRuns(context, label),
          fontSize: labelSize,
          color: LABEL_COLOR,
          margin: [0, (context.fontSize - labelSize) * 0.6, 0, 0],
        },
        { text: pdfRuns(context, value === '' ? '—' : value), bold: label === 'Patient name' },
      );
    }
    body.push(row);
  }
  return {
    table: { widths: ['19%', '31%', '19%', '31%'], body },
    layout: PATIENT_LAYOUT,
    margin: [0, 0, 0, context.fontSize * 1.1],
  };
}

export function pdfTitle(context: TPdfContext, title: string): TPdfContent {
  return {
    text: pdfRuns(context, title),
    fontSize: context.headingSizes[0],
    bold: true,
    alignment: 'center',
    characterSpacing: 0.3,
    margin: [0, 0, 0, context.fontSize],
  };
}

function signatureBlock(
  context: TPdfContext,
  signature: TSignatureBlock,
  placement: TSignaturePlacement,
): TPdfContent {
  const parts: TPdfContent[] = [];
  const embedded = signature.image ? embedImage(context, signature.image) : null;
  if (embedded) {
    const { key, size } = embedded;
    const box = shrinkBox(
      { width: SIGNATURE_IMAGE_WIDTH, height: (SIGNATURE_IMAGE_WIDTH * size.height) / size.width },
      SIGNATURE_IMAGE_WIDTH,
      SIGNATURE_IMAGE_MAX_HEIGHT,
    );
    parts.push({ image: key, width: box.width, height: box.height, margin: [0, 0, 0, 2] });
  } else {
    // Room to sign a printed copy by hand.
    parts.push({ text: '', margin: [0, SIGNATURE_IMAGE_MAX_HEIGHT * 0.6, 0, 0] });
  }
  parts.push({ text: pdfRuns(context, signature.displayName), bold: true });
  for (const line of (signature.description ?? '').split(/\r?\n/)) {
    if (line.trim() !== '')
      parts.push({ text: pdfRuns(context, line.trim()), fontSize: context.fontSize * 0.9, color: '#333333' });
  }
  if (signature.signedNote) {
    parts.push({
      text: pdfRuns(context, signature.signedNote),
      fontSize: context.fontSize * 0.78,
      color: LABEL_COLOR,
      margin: [0, 2, 0, 0],
    });
  }
  return { stack: parts, alignment: placement, width: SIGNATURE_BLOCK_WIDTH };
}

/**
 * Signature blocks side by side (as many per row as fit), the rows pushed to the placement's side,
 * all kept together on one page.
 */
export function pdfSignatures(
  context: TPdfContext,
  signatures: readonly TSignatureBlock[],
  placement: TSignaturePlacement,
): TPdfContent | null {
  if (signatures.length === 0) return null;
  const perRow = signaturesPerRow(context.width);
  const rows: TPdfContent[] = [];
  for (let i = 0; i < signatures.length; i += perRow) {
    const blocks = signatures
      .slice(i, i + perRow)
      .map((signature) => signatureBlock(context, signature, placement));
    const spacer: TPdfContent = { text: '', width: '*' as const };
    const columns =
      placement === 'left'
        ? [...blocks, spacer]
        : placement === 'right'
          ? [spacer, ...blocks]
          : [spacer, ...blocks, spacer];
    rows.push({ columns, columnGap: SIGNATURE_GAP, margin: [0, 0, 0, 10] });
  }
  return { stack: rows, unbreakable: true, margin: [0, context.fontSize * 1.6, 0, 0] };
}

/** Each addendum under its heading, after the signed report. */
export function pdfAddenda(context: TPdfContext, addenda: readonly TAddendumBlock[]): TPdfContent[] {
  if (addenda.length === 0) return [];
  const content: TPdfContent[] = [
    {
      text: pdfRuns(context, ADDENDA_HEADING),
      fontSize: context.headingSizes[1],
      bold: true,
      headlineLevel: 2,
      margin: [0, context.fontSize, 0, context.fontSize * 0.4],
    },
  ];
  for (const addendum of addenda) {
    content.push({
      text: pdfRuns(context, addendum.heading),
      fontSize: context.headingSizes[2],
      bold: true,
      headlineLevel: 3,
      margin: [0, context.fontSize * 0.6, 0, context.fontSize * 0.3],
    });
    content.push(...pdfBlocks(context, parseReportHtml(addendum.html)));
  }
  return content;
}
