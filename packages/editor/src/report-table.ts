import { mergeAttributes, type Attributes } from '@tiptap/core';
import {
  createColGroup,
  Table,
  TableCell,
  TableHeader,
  TableView,
  updateColumns,
} from '@tiptap/extension-table';
import { Fragment, type DOMOutputSpec, type Node as PMNode } from '@tiptap/pm/model';
import type { EditorView } from '@tiptap/pm/view';
import { boundedInteger, knownValue } from './safe-values.ts';

/** HTML's own bounds for colspan and rowspan. */
const MAX_COLSPAN = 1000;
const MAX_ROWSPAN = 65534;
const MAX_COLUMN_WIDTH = 100_000;
const CELL_ALIGNMENTS = ['left', 'center', 'right'] as const;

const colspanOf = (value: unknown) => boundedInteger(value, 1, MAX_COLSPAN) ?? 1;
const rowspanOf = (value: unknown) => boundedInteger(value, 1, MAX_ROWSPAN) ?? 1;

/**
 * Spans drive loops and allocations in ProseMirror's table code (a colspan of 1e9 exhausts a
 * viewer's memory), so a cell with any other span cannot be created at all: ProseMirror validates
 * attributes on every node creation, and the collaboration binding drops (and deletes from the
 * shared document) an element it cannot create.
 */
function validSpan(max: number) {
  return (value: unknown): void => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
      throw new RangeError(`a table cell span must be an integer from 1 to ${max}`);
    }
  };
}

/** Column widths in pixels (one per spanned column), or null unless every one is a bounded integer. */
function colwidthOf(value: unknown): number[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_COLSPAN) return null;
  const widths = value.map((width) => boundedInteger(width, 1, MAX_COLUMN_WIDTH));
  return widths.every((width) => width !== null) ? (widths as number[]) : null;
}

/**
 * Cell attributes, coerced: TipTap renders `align` into `style="text-align: …"` and the table's
 * colgroup and width from colspan/colwidth as they are, so a collaborator's update could put any
 * text there. Here they render as integers and keywords only; spans are also validated.
 */
function cellAttributes(): Attributes {
  return {
    colspan: {
      default: 1,
      validate: validSpan(MAX_COLSPAN),
      parseHTML: (element) => colspanOf(element.getAttribute('colspan')),
      renderHTML: (attributes) => ({ colspan: String(colspanOf(attributes.colspan)) }),
    },
    rowspan: {
      default: 1,
      validate: validSpan(MAX_ROWSPAN),
      parseHTML: (element) => rowspanOf(element.getAttribute('rowspan')),
      renderHTML: (attributes) => ({ rowspan: String(rowspanOf(attributes.rowspan)) }),
    },
    colwidth: {
      default: null,
      parseHTML: (element) => {
        const attribute = element.getAttribute('colwidth');
        return attribute ? colwidthOf(attribute.split(',')) : null;
      },
      renderHTML: (attributes) => {
        const widths = colwidthOf(attributes.colwidth);
        return widths ? { colwidth: widths.join(',') } : {};
      },
    },
    align: {
      default: null,
      parseHTML: (element) =>
        knownValue(
          (element.style.textAlign || element.getAttribute('align') || '').trim().toLowerCase(),
          CELL_ALIGNMENTS,
        ),
      renderHTML: (attributes) => {
        const align = knownValue(attributes.align, CELL_ALIGNMENTS);
        return align ? { style: `text-align: ${align}` } : {};
      },
    },
  };
}

export const ReportTableCell = TableCell.extend({ addAttributes: cellAttributes });
export const ReportTableHeader = TableHeader.extend({ addAttributes: cellAttributes });

/**
 * The table with its first row's cells (what the colgroup and width are computed from) holding
 * coerced spans and widths only: TipTap's createColGroup and TableView add the widths up and put
 * the sum into the table's style, so a width that is text would become part of the style.
 */
function withSafeColumns(table: PMNode): PMNode {
  const row = table.firstChild;
  if (!row) return table;
  const cells: PMNode[] = [];
  row.forEach((cell) => {
    const attrs = {
      ...cell.attrs,
      colspan: colspanOf(cell.attrs.colspan),
      colwidth: colwidthOf(cell.attrs.colwidth),
    };
    cells.push(cell.type.create(attrs, cell.content, cell.marks));
  });
  return table.copy(table.content.replaceChild(0, row.copy(Fragment.from(cells))));
}

/** The editor's table view (keeps the colgroup in sync while editing), from coerced widths. */
class ReportTableView extends TableView {
  constructor(
    node: PMNode,
    cellMinWidth: number,
    view?: EditorView,
    HTMLAttributes?: Record<string, unknown>,
  ) {
    super(withSafeColumns(node), cellMinWidth, view, HTMLAttributes);
    this.node = node;
  }

  override update(node: PMNode): boolean {
    if (node.type !== this.node.type) return false;
    this.node = node;
    updateColumns(withSafeColumns(node), this.colgroup, this.table, this.cellMinWidth);
    return true;
  }
}

/** Tables whose colgroup and width are computed from coerced cell attributes (see cellAttributes). */
export const ReportTable = Table.extend({
  addOptions() {
    const parent = this.parent?.();
    if (!parent) throw new Error('ReportTable extends Table');
    return { ...parent, View: ReportTableView };
  },

  renderHTML({ node, HTMLAttributes }) {
    const { colgroup, tableWidth, tableMinWidth } = createColGroup(
      withSafeColumns(node),
      this.options.cellMinWidth,
    );
    const table: DOMOutputSpec = [
      'table',
      mergeAttributes(this.options.HTMLAttributes, HTMLAttributes, {
        style: tableWidth ? `width: ${tableWidth}` : `min-width: ${tableMinWidth}`,
      }),
      colgroup,
      ['tbody', 0],
    ];
    return this.options.renderWrapper ? ['div', { class: 'tableWrapper' }, table] : table;
  },
});
