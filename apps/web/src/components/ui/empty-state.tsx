import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from './cn.ts';

export interface EmptyStateProps {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
}

/** A calm, centred message for a region with nothing to show. */
export function EmptyState({ icon: Icon, title, children, action, className }: EmptyStateProps) {
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center rounded-lg border border-dashed border-line-strong',
        'bg-surface px-6 py-16 text-center',
        className,
      )}
    >
      <span className="mb-4 flex size-10 items-center justify-center rounded-lg border border-line bg-surface-raised">
        <Icon aria-hidden="true" className="size-5 text-fg-muted" />
      </span>
      <p className="text-sm font-semibold text-fg">{title}</p>
      {children ? <div className="mt-1 max-w-md text-[13px] text-fg-muted">{children}</div> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
