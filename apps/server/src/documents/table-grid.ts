// A report table laid on a rectangular grid (pdfmake wants a placeholder where a spanned cell would
// be; DOCX wants the same column count in every row): spans resolved, rows padded, spans clamped to
// the table, header rows counted, column widths from the editor's colwidth when every column has one.
import type { TTableCell } from './report-tree.ts';

/** More columns than this cannot be read on A4; cells beyond it are merged into the last column. */
export const MAX_COLUMNS = 40;

/**
 * A grid slot: the cell that starts there (with its clamped row span), 'spanned' (covered by a cell
 * spanning from the left or from above) or null (an empty cell padding a short row).
 */
export type TGridSlot = { cell: TTableCell; rowspan: number } | 'spanned' | null;

export type TTableGrid = {
  columns: number;
  rows: TGridSlot[][];
  /** Leading rows made of header cells only (repeated on each page). */
  headerRows: number;
  /** Share of the table width per column (sums to 1), or null for equal columns. */
  widths: number[] | null;
};

export function tableGrid(input: readonly TTableCell[][]): TTableGrid {
  const rowCount = input.length;
  // covered[r] holds the columns of row r taken by a row span from above.
  const covered: Array<Set<number>> = input.map(() => new Set<number>());
  const placed: Array<Array<{ column: number; cell: TTableCell; rowspan: number }>> = [];
  let columns = 0;
  input.forEach((cells, r) => {
    const row: Array<{ column: number; cell: TTableCell; rowspan: number }> = [];
    let column = 0;
    for (const original of cells) {
      while (covered[r]?.has(column)) column++;
      if (column >= MAX_COLUMNS) {
        // No room left: the text joins the last cell placed in this row (never dropped).
        const last = row.at(-1);
        if (last) last.cell = { ...last.cell, blocks: [...last.cell.blocks, ...original.blocks] };
        continue;
      }
      const colspan = Math.min(original.colspan, MAX_COLUMNS - column);
      const rowspan = Math.min(original.rowspan, rowCount - r);
      const cell = colspan === original.colspan ? original : { ...original, colspan };
      row.push({ column, cell, rowspan });
      for (let dr = 1; dr < rowspan; dr++) {
        for (let dc = 0; dc < colspan; dc++) covered[r + dr]?.add(column + dc);
      }
      column += colspan;
    }
    columns = Math.max(columns, column, ...[...(covered[r] ?? [])].map((c) => c + 1));
    placed.push(row);
  });

  const rows: TGridSlot[][] = placed.map((_, r) =>
    Array.from({ length: columns }, (_slot, column): TGridSlot =>
      covered[r]?.has(column) ? 'spanned' : null,
    ),
  );
  placed.forEach((row, r) => {
    for (const { column, cell, rowspan } of row) {
      const slots = rows[r];
      if (!slots) continue;
      slots[column] = { cell, rowspan };
      for (let dc = 1; dc < cell.colspan; dc++) slots[column + dc] = 'spanned';
    }
  });

  let headerRows = 0;
  while (
    headerRows < input.length &&
    (input[headerRows]?.length ?? 0) > 0 &&
    input[headerRows]?.every((cell) => cell.header)
  ) {
    headerRows++;
  }
  // A table of header cells only has no body to repeat them over.
  if (headerRows === input.length) headerRows = 0;

  return { columns, rows, headerRows, widths: columnWidths(placed[0] ?? [], columns) };
}

function columnWidths(firstRow: ReadonlyArray<{ cell: TTableCell }>, columns: number): number[] | null {
  const widths: number[] = [];
  for (const { cell } of firstRow) {
    if (!cell.colwidth || cell.colwidth.length !== cell.colspan) return null;
    widths.push(...cell.colwidth);
  }
  if (widths.length !== columns) return null;
  const total = widths.reduce((sum, width) => sum + width, 0);
  return widths.map((width) => width / total);
}
