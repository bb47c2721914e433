import type { ReactNode } from 'react';
import { useId } from 'react';
import { cn } from '../../components/ui/cn.ts';

/** A card of the home screen: a heading (with how many there are in all) and its content. */
export function HomeSection({
  title,
  total,
  children,
  className,
  actions,
}: {
  title: string;
  /** Shown beside the heading ("12"), e.g. a list's total when it shows only the first ones. */
  total?: number;
  children: ReactNode;
  className?: string;
  actions?: ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className={cn('flex min-w-0 flex-col gap-3 rounded-lg border border-line bg-surface p-4', className)}
    >
      <div className="flex items-center justify-between gap-3">
        <h2 id={headingId} className="flex items-baseline gap-2 text-sm font-semibold text-fg">
          {title}
          {total !== undefined ? (
            <span className="rounded bg-surface-hover px-1.5 text-[11px] font-medium text-fg-muted tabular-nums">
              {total}
            </span>
          ) : null}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** One figure in large type with its name under it (finals today, median turnaround). */
export function StatTile({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="flex flex-col gap-0.5 rounded-lg border border-line bg-surface px-4 py-3">
      <dt className="order-2 text-xs text-fg-muted">{label}</dt>
      <dd className="order-1 text-2xl font-semibold tracking-tight text-fg tabular-nums">{value}</dd>
      {hint ? <dd className="order-3 text-[11px] text-fg-subtle">{hint}</dd> : null}
    </div>
  );
}
