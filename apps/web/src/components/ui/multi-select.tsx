import * as Popover from '@radix-ui/react-popover';
import { ChevronDown } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { cn } from './cn.ts';

export interface MultiSelectOption {
  value: string;
  label: string;
}

export interface MultiSelectProps {
  /** The filter's name: the button reads 'Facility: All' or 'Facility: 2'. */
  label: string;
  options: readonly MultiSelectOption[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  /** Extra content above the options (e.g. a search field). */
  header?: ReactNode;
  emptyText?: string;
  onOpenChange?: (open: boolean) => void;
}

/** A compact filter button opening a checklist; every option is a labelled checkbox. */
export function MultiSelect({
  label,
  options,
  selected,
  onChange,
  header,
  emptyText = 'Nothing to choose from',
  onOpenChange,
}: MultiSelectProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const summary =
    selected.length === 0
      ? 'All'
      : selected.length === 1
        ? (options.find((option) => option.value === selected[0])?.label ?? '1')
        : String(selected.length);
  const toggle = (value: string): void =>
    onChange(selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value]);

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        onOpenChange?.(next);
      }}
    >
      <Popover.Trigger
        className={cn(
          'inline-flex h-8 max-w-52 items-center gap-1.5 rounded-md border px-2.5 text-[13px] transition-colors',
          selected.length > 0
            ? 'border-accent/60 bg-accent-soft text-fg'
            : 'border-line-strong bg-surface-raised text-fg-muted hover:text-fg',
        )}
        aria-label={`${label}: ${selected.length === 0 ? 'all' : `${selected.length} selected`}`}
      >
        <span className="text-fg-subtle">{label}</span>
        <span className="truncate font-medium text-fg">{summary}</span>
        <ChevronDown aria-hidden="true" className="size-3.5 shrink-0 text-fg-subtle" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={4}
          className="z-50 w-64 rounded-md border border-line-strong bg-surface-raised p-1 shadow-xl"
        >
          {header}
          <fieldset className="max-h-72 overflow-y-auto">
            <legend className="sr-only">{label}</legend>
            {options.length === 0 ? <p className="px-2 py-2 text-xs text-fg-subtle">{emptyText}</p> : null}
            {options.map((option) => {
              const checked = selected.includes(option.value);
              const optionId = `${id}-${option.value}`;
              return (
                <label
                  key={option.value}
                  htmlFor={optionId}
                  className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-[13px] text-fg hover:bg-surface-hover"
                >
                  <input
                    id={optionId}
                    type="checkbox"
                    className="size-3.5 shrink-0 accent-(--color-accent)"
                    checked={checked}
                    onChange={() => toggle(option.value)}
                  />
                  <span className="truncate">{option.label}</span>
                </label>
              );
            })}
          </fieldset>
          {selected.length > 0 ? (
            <button
              type="button"
              onClick={() => onChange([])}
              className="mt-1 w-full rounded border-t border-line px-2 py-1.5 text-left text-xs text-fg-muted hover:bg-surface-hover hover:text-fg"
            >
              Clear {label.toLowerCase()} filter
            </button>
          ) : null}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
