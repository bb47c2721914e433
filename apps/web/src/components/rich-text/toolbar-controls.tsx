import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { Editor } from '@tiptap/core';
import { ChevronDown, Table, type LucideIcon } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { cn } from '../ui/cn.ts';
import { Tooltip } from '../ui/tooltip.tsx';

const BUTTON_CLASS = cn(
  'inline-flex size-7 shrink-0 cursor-pointer items-center justify-center rounded text-fg-muted transition-colors',
  'hover:bg-surface-hover hover:text-fg disabled:pointer-events-none disabled:opacity-40',
  'focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-focus',
  'aria-pressed:bg-accent-soft aria-pressed:text-accent',
);

export interface ToolbarButtonProps {
  label: string;
  icon: LucideIcon;
  onClick: () => void;
  /** A toggle: rendered with aria-pressed (true or false); omitted for plain actions. */
  active?: boolean;
  disabled?: boolean;
  /** Keyboard shortcut shown in the tooltip, e.g. 'Ctrl+B'. */
  shortcut?: string;
}

/** One icon button of the toolbar: an accessible name, a tooltip, and aria-pressed for toggles. */
export function ToolbarButton({
  label,
  icon: Icon,
  onClick,
  active,
  disabled,
  shortcut,
}: ToolbarButtonProps) {
  return (
    <Tooltip content={shortcut ? `${label} (${shortcut})` : label}>
      <button
        type="button"
        className={BUTTON_CLASS}
        aria-label={label}
        aria-pressed={active === undefined ? undefined : active}
        disabled={disabled}
        // Keeps the editor's selection: the command then focuses the editor again itself.
        onMouseDown={(event) => event.preventDefault()}
        onClick={onClick}
      >
        <Icon aria-hidden="true" className="size-4" />
      </button>
    </Tooltip>
  );
}

export function ToolbarDivider() {
  return <span role="separator" aria-orientation="vertical" className="mx-0.5 h-5 w-px bg-line" />;
}

/**
 * Arrow keys (and Home/End) move focus between the toolbar's controls, as in the WAI-ARIA toolbar
 * pattern; Tab still reaches every control too.
 */
export function moveToolbarFocus(event: KeyboardEvent<HTMLElement>): void {
  const keys = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];
  if (!keys.includes(event.key)) return;
  const target = event.target as HTMLElement;
  if (target.tagName === 'SELECT' && event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
  const controls = Array.from(
    event.currentTarget.querySelectorAll<HTMLElement>('button:not(:disabled), select:not(:disabled)'),
  );
  const index = controls.indexOf(target);
  if (index < 0) return;
  const next =
    event.key === 'Home'
      ? 0
      : event.key === 'End'
        ? controls.length - 1
        : (index + (event.key === 'ArrowRight' ? 1 : -1) + controls.length) % controls.length;
  event.preventDefault();
  controls[next]?.focus();
}

const ITEM_CLASS = cn(
  'flex cursor-pointer items-center rounded px-2 py-1.5 text-[13px] text-fg outline-none select-none',
  'data-[highlighted]:bg-surface-hover data-[disabled]:pointer-events-none data-[disabled]:opacity-40',
);

interface TableAction {
  label: string;
  run: (editor: Editor) => void;
  /** Needs the caret inside a table. */
  inTable: boolean;
  danger?: boolean;
}

const TABLE_ACTIONS: readonly (TableAction | 'divider')[] = [
  {
    label: 'Insert table (3 × 3)',
    inTable: false,
    run: (editor) => editor.chain().focus().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
  },
  'divider',
  { label: 'Add row above', inTable: true, run: (editor) => editor.chain().focus().addRowBefore().run() },
  { label: 'Add row below', inTable: true, run: (editor) => editor.chain().focus().addRowAfter().run() },
  {
    label: 'Add column left',
    inTable: true,
    run: (editor) => editor.chain().focus().addColumnBefore().run(),
  },
  {
    label: 'Add column right',
    inTable: true,
    run: (editor) => editor.chain().focus().addColumnAfter().run(),
  },
  {
    label: 'Toggle header row',
    inTable: true,
    run: (editor) => editor.chain().focus().toggleHeaderRow().run(),
  },
  'divider',
  {
    label: 'Delete row',
    inTable: true,
    danger: true,
    run: (editor) => editor.chain().focus().deleteRow().run(),
  },
  {
    label: 'Delete column',
    inTable: true,
    danger: true,
    run: (editor) => editor.chain().focus().deleteColumn().run(),
  },
  {
    label: 'Delete table',
    inTable: true,
    danger: true,
    run: (editor) => editor.chain().focus().deleteTable().run(),
  },
];

/** The table menu: insert a 3 × 3 table; rows, columns and the table itself when the caret is in one. */
export function TableMenu({
  editor,
  inTable,
  disabled,
}: {
  editor: Editor;
  inTable: boolean;
  disabled: boolean;
}) {
  return (
    <DropdownMenu.Root modal={false}>
      <Tooltip content="Table">
        <DropdownMenu.Trigger
          disabled={disabled}
          aria-label="Table"
          className={cn(BUTTON_CLASS, 'w-auto gap-0.5 px-1', inTable && 'text-accent')}
        >
          <Table aria-hidden="true" className="size-4" />
          <ChevronDown aria-hidden="true" className="size-3" />
        </DropdownMenu.Trigger>
      </Tooltip>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={4}
          className="z-50 min-w-48 rounded-md border border-line-strong bg-surface-raised p-1 shadow-xl"
          onCloseAutoFocus={(event) => {
            // The chosen command focused the editor; do not steal the focus back to the trigger.
            event.preventDefault();
          }}
        >
          {TABLE_ACTIONS.map((action, index) =>
            action === 'divider' ? (
              <DropdownMenu.Separator key={`divider-${index}`} className="my-1 h-px bg-line" />
            ) : (
              <DropdownMenu.Item
                key={action.label}
                className={cn(ITEM_CLASS, action.danger && 'text-danger')}
                disabled={action.inTable && !inTable}
                onSelect={() => action.run(editor)}
              >
                {action.label}
              </DropdownMenu.Item>
            ),
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
