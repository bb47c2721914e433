import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from './cn.ts';

export interface TabItem<T extends string> {
  id: T;
  label: string;
}

export interface TabsProps<T extends string> {
  /** The tab list's accessible name. */
  label: string;
  items: readonly TabItem<T>[];
  value: T;
  onChange: (value: T) => void;
  /** The panel of the selected tab (one panel, labelled by its tab). */
  children: ReactNode;
  className?: string;
}

/**
 * Tabs after the WAI-ARIA pattern: a tablist whose selected tab alone is in the Tab order; the arrow
 * keys, Home and End move between tabs and select the one reached (automatic activation); the panel
 * below is labelled by its tab and is itself focusable, so the keyboard reaches its content next.
 */
export function Tabs<T extends string>({ label, items, value, onChange, children, className }: TabsProps<T>) {
  const id = useId();
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const tabId = (item: T) => `${id}-tab-${item}`;
  const panelId = `${id}-panel`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.id === value);
    const last = items.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index <= 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    const target = next === null ? undefined : items[next];
    if (!target) return;
    event.preventDefault();
    onChange(target.id);
    refs.current.get(target.id)?.focus();
  };

  return (
    <div className={cn('flex flex-col gap-5', className)}>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="flex gap-1 overflow-x-auto border-b border-line"
      >
        {items.map((item) => {
          const selected = item.id === value;
          return (
            <button
              key={item.id}
              ref={(element) => {
                if (element) refs.current.set(item.id, element);
                else refs.current.delete(item.id);
              }}
              id={tabId(item.id)}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={selected ? panelId : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(item.id)}
              className={cn(
                '-mb-px shrink-0 border-b-2 px-3 py-2 text-[13px] font-medium whitespace-nowrap transition-colors',
                'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-focus',
                selected ? 'border-accent text-fg' : 'border-transparent text-fg-muted hover:text-fg',
              )}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      <div
        id={panelId}
        role="tabpanel"
        aria-labelledby={tabId(value)}
        tabIndex={0}
        className="flex flex-col gap-5 focus-visible:outline-none"
      >
        {children}
      </div>
    </div>
  );
}
