import {
  DEFAULT_SORT_ORDER,
  isOverdue,
  turnaroundTargetMinutes,
  type TQuickAction,
  type TSortOrder,
  type TTurnaroundTargets,
  type TViewer,
  type TWorklistColumn,
  type TWorklistItem,
} from '@ris/domain';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowSelectionState,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown, Eye, FilePenLine, ImageOff } from 'lucide-react';
import { useMemo } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { useMinuteClock } from '../../components/hooks/use-minute-clock.ts';
import { COLUMN_LABELS, COLUMN_SORT_FIELDS, COLUMN_WIDTHS, tableMinWidth } from './worklist-columns.ts';
import { DateTimeCell, Muted, OverdueClock, PriorityBadge, StatusText } from './worklist-cells.tsx';
import { RowMenu } from './row-menu.tsx';
import { ItemTags } from './item-tags.tsx';
import { useOpenInViewer } from '../viewers/use-open-in-viewer.ts';
import type { TItemTag } from './worklist-api.ts';

export interface WorklistTableProps {
  items: TWorklistItem[];
  columns: TWorklistColumn[];
  sortBy: string;
  sortOrder: TSortOrder;
  onSort: (sortBy: string, sortOrder: TSortOrder) => void;
  selection: RowSelectionState;
  onSelectionChange: (selection: RowSelectionState) => void;
  quickAction: TQuickAction;
  viewer: TViewer;
  onOpen: (item: TWorklistItem) => void;
  onDelete: (item: TWorklistItem) => void;
  busy: boolean;
  emptyText: string;
  /** Tags on the items, by item id (shown beside the patient, each removable). */
  itemTags?: ReadonlyMap<string, TItemTag[]>;
  /** The organisation's turnaround targets: an item past its target shows a clock beside its priority. */
  turnaroundTargets?: TTurnaroundTargets | null;
}

interface CellContext {
  now: Date;
  props: WorklistTableProps;
}

function renderCell(column: TWorklistColumn, item: TWorklistItem, { now, props }: CellContext) {
  switch (column) {
    case 'patient_name':
      return <PatientCell item={item} props={props} now={now} />;
    case 'patient_id':
      return (
        <span className="block truncate font-mono text-[11.5px] text-fg-muted" title={item.patient_id}>
          {item.patient_id}
        </span>
      );
    case 'modality':
      return (
        <span className="block truncate" title={item.modality ?? undefined}>
          <Muted>{item.modality}</Muted>
        </span>
      );
    case 'study':
      return <Clipped text={item.study} />;
    case 'datetime':
      return <DateTimeCell item={item} now={now} />;
    case 'series_count':
      return item.images_deleted_at ? (
        <span
          className="inline-flex items-center gap-1 text-danger"
          title={`The image archive no longer has this study (since ${new Date(item.images_deleted_at).toLocaleString()})`}
        >
          <ImageOff aria-hidden="true" className="size-3.5" />
          <span className="sr-only">Images deleted in the archive</span>
          <span className="tabular-nums">{item.series_count}</span>
        </span>
      ) : (
        <span className="tabular-nums">{item.series_count}</span>
      );
    case 'status':
      return <StatusText status={item.status} />;
    case 'radiologist':
      return <Clipped text={item.last_assigned_user_display_name} />;
    case 'referring_physician':
      return <Clipped text={item.referring_physician} />;
    case 'facility':
      return <Clipped text={item.facility} />;
    case 'actions':
      return <RowActions item={item} props={props} />;
  }
}

/**
 * Text wrapped within the column onto the row's two lines (the date column has two anyway), cut
 * after that; the whole text stays available on hover.
 */
function Clipped({ text }: { text: string | null }) {
  if (!text) return <Muted>{text}</Muted>;
  return (
    <span className="line-clamp-2 leading-tight break-words whitespace-normal" title={text}>
      {text}
    </span>
  );
}

/**
 * The patient's name (opens the study), cut to the column with a hover; priority, the clock of an
 * item past its turnaround target, and tags beneath.
 */
function PatientCell({ item, props, now }: { item: TWorklistItem; props: WorklistTableProps; now: Date }) {
  const tags = props.itemTags?.get(item.id);
  const targets = props.turnaroundTargets;
  // The domain's one rule, per row from the targets fetched once: no request per row.
  const overdue = targets ? isOverdue(item, targets, now) : false;
  return (
    <span className="flex min-w-0 flex-col items-start gap-0.5">
      <button
        type="button"
        onClick={() => props.onOpen(item)}
        title={item.patient_name}
        className="max-w-full truncate text-left leading-tight font-medium text-fg hover:text-accent hover:underline focus-visible:underline"
      >
        {item.patient_name}
      </button>
      {item.priority_tag || overdue || (tags && tags.length > 0) ? (
        <span className="flex max-w-full items-center gap-1 overflow-hidden">
          {item.priority_tag ? <PriorityBadge tag={item.priority_tag} /> : null}
          {overdue && targets ? (
            <OverdueClock targetMinutes={turnaroundTargetMinutes(item.priority_tag, targets)} />
          ) : null}
          <ItemTags tags={tags} patientName={item.patient_name} />
        </span>
      ) : null}
    </span>
  );
}

/** The 'view' quick action: opens the study in the user's default viewer; needs its DICOM UID. */
function ViewAction({ item, viewer }: { item: TWorklistItem; viewer: TViewer }) {
  const { name, open, pending } = useOpenInViewer(viewer);
  const studyUid = item.study_uid;
  return (
    // Row actions hint with the native title: the worklist loads no tooltip library.
    <span title={studyUid ? `View in ${name}` : 'This study has no images yet (no Study Instance UID)'}>
      <Button
        variant="ghost"
        size="icon"
        className="size-7"
        aria-label={`View ${item.patient_name} in ${name}`}
        disabled={!studyUid || pending}
        onClick={() => studyUid && open(studyUid)}
      >
        <Eye aria-hidden="true" className="size-4" />
      </Button>
    </span>
  );
}

function RowActions({ item, props }: { item: TWorklistItem; props: WorklistTableProps }) {
  return (
    <span className="flex items-center justify-end gap-0.5">
      {props.quickAction === 'edit' ? (
        <Button
          variant="ghost"
          size="icon"
          className="size-7"
          title="Open report"
          aria-label={`Open report of ${item.patient_name}`}
          onClick={() => props.onOpen(item)}
        >
          <FilePenLine aria-hidden="true" className="size-4" />
        </Button>
      ) : (
        <ViewAction item={item} viewer={props.viewer} />
      )}
      <RowMenu item={item} onOpen={props.onOpen} onDelete={props.onDelete} />
    </span>
  );
}

function SortHeader({ column, props }: { column: TWorklistColumn; props: WorklistTableProps }) {
  const field = COLUMN_SORT_FIELDS[column];
  const text = COLUMN_LABELS[column];
  if (column === 'actions') return <span className="sr-only">{text}</span>;
  const label = (
    <span className="line-clamp-2 leading-tight whitespace-normal" title={text}>
      {text}
    </span>
  );
  if (!field) return label;
  const active = props.sortBy === field;
  const Icon = !active ? ArrowUpDown : props.sortOrder === 'asc' ? ArrowUp : ArrowDown;
  const next: TSortOrder = active ? (props.sortOrder === 'asc' ? 'desc' : 'asc') : DEFAULT_SORT_ORDER;
  return (
    <button
      type="button"
      onClick={() => props.onSort(field, next)}
      className={cn(
        '-mx-1 inline-flex max-w-full items-center gap-1 rounded px-1 text-left hover:text-fg',
        active && 'text-fg',
      )}
    >
      {label}
      <Icon aria-hidden="true" className={cn('size-3 shrink-0', active ? 'text-accent' : 'text-fg-subtle')} />
    </button>
  );
}

// A sticky cell covers what scrolls beneath it, so it paints the row's hover and selection itself:
// the same colours as the row's translucent ones laid over the surface.
const STICKY =
  'sticky z-[1] bg-surface group-hover:bg-[color-mix(in_oklab,var(--color-surface-hover)_60%,var(--color-surface))] group-aria-selected:bg-[color-mix(in_oklab,var(--color-accent-soft)_60%,var(--color-surface))] group-aria-selected:group-hover:bg-accent-soft';

const CELL_CLASS: Partial<Record<TWorklistColumn | 'select', string>> = {
  // The checkbox and the patient stay in view when a narrow screen scrolls the table sideways.
  select: cn(STICKY, 'left-0 pr-0'),
  patient_name: cn(STICKY, 'left-9'),
  series_count: 'text-right',
  // Always reachable: the actions column sticks to the right edge when the table scrolls sideways.
  actions: cn(STICKY, 'right-0 border-l border-line text-right'),
};

/** Header cells stick like their column; they keep the header's own background. */
const HEADER_CLASS: Partial<Record<TWorklistColumn | 'select', string>> = {
  select: 'sticky left-0 z-[1] bg-surface-raised pr-0',
  patient_name: 'sticky left-9 z-[1] bg-surface-raised',
  series_count: 'text-right',
  actions: 'sticky right-0 z-[1] border-l border-line bg-surface-raised text-right',
};

/**
 * The worklist as an accessible table: sortable headers carry aria-sort, rows can be selected with
 * labelled checkboxes, the columns come in the user's order and visibility. Sorting and paging are
 * the server's; TanStack Table keeps the row model and the selection.
 */
export function WorklistTable(props: WorklistTableProps) {
  const now = useMinuteClock();
  const { items, columns, selection, onSelectionChange } = props;
  const context: CellContext = { now, props };

  const columnDefs = useMemo<ColumnDef<TWorklistItem>[]>(
    () => [
      {
        id: 'select',
        header: ({ table }) => (
          <input
            type="checkbox"
            aria-label="Select all on this page"
            className="size-3.5 accent-(--color-accent)"
            checked={table.getIsAllPageRowsSelected()}
            ref={(element) => {
              if (element) element.indeterminate = table.getIsSomePageRowsSelected();
            }}
            onChange={table.getToggleAllPageRowsSelectedHandler()}
          />
        ),
        cell: ({ row }) => (
          <input
            type="checkbox"
            aria-label={`Select ${row.original.patient_name}`}
            className="size-3.5 accent-(--color-accent)"
            checked={row.getIsSelected()}
            onChange={row.getToggleSelectedHandler()}
          />
        ),
      },
      ...columns.map<ColumnDef<TWorklistItem>>((column) => ({ id: column })),
    ],
    [columns],
  );

  // TanStack Table's instance is not memoisable by the React Compiler; this component opts out of it.
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table returns fresh functions each render by design; the React Compiler must not memoise around it (the rule says so itself)
  const table = useReactTable({
    data: items,
    columns: columnDefs,
    getRowId: (item) => item.id,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    enableRowSelection: true,
    state: { rowSelection: selection },
    onRowSelectionChange: (updater) =>
      onSelectionChange(typeof updater === 'function' ? updater(selection) : updater),
  });

  return (
    <div className="relative overflow-x-auto rounded-lg border border-line bg-surface">
      <table
        className="w-full table-fixed border-collapse text-[12.5px]"
        style={{ minWidth: tableMinWidth(columns) }}
        aria-busy={props.busy}
      >
        <caption className="sr-only">Worklist studies</caption>
        <colgroup>
          {(['select', ...columns] as const).map((column) => {
            const width = COLUMN_WIDTHS[column];
            return <col key={column} style={'fixed' in width ? { width: width.fixed } : undefined} />;
          })}
        </colgroup>
        <thead className="sticky top-0 z-10 bg-surface-raised">
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} className="border-b border-line">
              {group.headers.map((header) => {
                const column = header.column.id as TWorklistColumn | 'select';
                const field = column === 'select' ? undefined : COLUMN_SORT_FIELDS[column];
                const sorted = field && props.sortBy === field;
                return (
                  <th
                    key={header.id}
                    scope="col"
                    aria-sort={
                      field
                        ? sorted
                          ? props.sortOrder === 'asc'
                            ? 'ascending'
                            : 'descending'
                          : 'none'
                        : undefined
                    }
                    className={cn(
                      'h-9 px-2 text-left text-xs font-medium whitespace-nowrap text-fg-muted',
                      HEADER_CLASS[column],
                    )}
                  >
                    {column === 'select' ? (
                      flexRender(header.column.columnDef.header, header.getContext())
                    ) : (
                      <SortHeader column={column} props={props} />
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr
              key={row.id}
              aria-selected={row.getIsSelected()}
              className={cn(
                'group border-b border-line last:border-b-0 hover:bg-surface-hover/60',
                row.getIsSelected() && 'bg-accent-soft/60 hover:bg-accent-soft',
              )}
            >
              {row.getVisibleCells().map((cell) => {
                const column = cell.column.id as TWorklistColumn | 'select';
                return (
                  <td
                    key={cell.id}
                    className={cn('h-10 px-2 py-1 whitespace-nowrap text-fg', CELL_CLASS[column])}
                  >
                    {column === 'select'
                      ? flexRender(cell.column.columnDef.cell, cell.getContext())
                      : renderCell(column, row.original, context)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {items.length === 0 && !props.busy ? (
        <p className="px-4 py-12 text-center text-[13px] text-fg-muted">{props.emptyText}</p>
      ) : null}
    </div>
  );
}
