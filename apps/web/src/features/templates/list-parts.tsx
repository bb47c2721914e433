// Pieces shared by the templates and macros screens: search box, delete confirmation, dates, and
// the table's look (one row per record, the whole row opens it).
import { format } from 'date-fns/format';
import { Search } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';

/** `value`, once it has stopped changing for `delayMs` (search boxes query the server less often). */
export function useDebouncedValue<T>(value: T, delayMs = 300): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export function SearchField({
  value,
  onChange,
  label,
  placeholder,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  placeholder?: string;
}) {
  return (
    <div className="relative w-72 max-w-full">
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-2.5 size-3.5 -translate-y-1/2 text-fg-subtle"
      />
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder ?? label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={cn(
          'h-8 w-full rounded-md border border-line-strong bg-surface-raised pr-2.5 pl-8 text-[13px] text-fg',
          'placeholder:text-fg-subtle focus-visible:border-accent focus-visible:outline-2 focus-visible:outline-focus/40',
        )}
      />
    </div>
  );
}

/** 'dd MMM yy, HH:mm' in the browser's time zone, like the worklist. */
export function formatUpdated(iso: string): string {
  return format(new Date(iso), 'dd MMM yy, HH:mm');
}

export interface ConfirmDeleteDialogProps {
  /** What is deleted, e.g. 'template “Chest CT”'. null closes the dialog. */
  subject: string | null;
  onCancel: () => void;
  onConfirm: () => void;
  pending: boolean;
}

/** 'Delete …?' with Cancel focused first; the record is removed only after Delete. */
export function ConfirmDeleteDialog({ subject, onCancel, onConfirm, pending }: ConfirmDeleteDialogProps) {
  return (
    <Dialog
      open={subject !== null}
      onOpenChange={(open) => !open && !pending && onCancel()}
      title="Delete?"
      description={subject ? `The ${subject} will be deleted. This cannot be undone.` : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={pending}>
            {pending ? <Spinner /> : null}
            Delete
          </Button>
        </>
      }
    >
      <p className="text-[13px] text-fg-muted">Reports already written keep their text.</p>
    </Dialog>
  );
}

export const TH_CLASS = 'h-9 px-3 text-left text-xs font-medium whitespace-nowrap text-fg-muted';
export const TD_CLASS = 'h-11 px-3 py-1.5 text-fg';

/** A table row that opens its record on click; the name cell holds the keyboard-reachable link. */
export function ClickableRow({ onOpen, children }: { onOpen: () => void; children: ReactNode }) {
  return (
    <tr
      onClick={(event) => {
        // Buttons and links inside the row do their own thing.
        if ((event.target as HTMLElement).closest('a, button')) return;
        onOpen();
      }}
      className="cursor-pointer border-b border-line last:border-b-0 hover:bg-surface-hover/60"
    >
      {children}
    </tr>
  );
}

/** The frame of a list: the table, or a message when there is nothing (or it failed to load). */
export function ListTable({
  caption,
  head,
  children,
  busy,
  emptyText,
  isEmpty,
}: {
  caption: string;
  head: ReactNode;
  children: ReactNode;
  busy: boolean;
  emptyText: ReactNode;
  isEmpty: boolean;
}) {
  return (
    <div className="relative overflow-x-auto rounded-lg border border-line bg-surface">
      <table className="w-full border-collapse text-[13px]" aria-busy={busy}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-surface-raised">
          <tr className="border-b border-line">{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
      {isEmpty && !busy ? (
        <div className="px-4 py-12 text-center text-[13px] text-fg-muted">{emptyText}</div>
      ) : null}
      {isEmpty && busy ? (
        <div className="flex justify-center px-4 py-12" role="status">
          <Spinner className="text-accent" />
          <span className="sr-only">Loading</span>
        </div>
      ) : null}
    </div>
  );
}
