import type { TTemplateScope } from '@ris/domain';
import { cn } from '../../components/ui/cn.ts';
import { SCOPE_LABELS } from './scope-labels.ts';

const SCOPE_CLASSES: Readonly<Record<TTemplateScope, string>> = {
  USER: 'border-line-strong text-fg-muted',
  ORGANISATION: 'border-accent/50 bg-accent-soft text-accent',
  DEFAULT: 'border-line text-fg-subtle bg-surface-hover',
};

/** Who a template belongs to: Personal, Organisation or Default (shipped, read-only). */
export function ScopeBadge({ scope }: { scope: TTemplateScope }) {
  return (
    <span
      className={cn(
        'inline-flex h-5 items-center rounded border px-1.5 text-[11px] font-medium whitespace-nowrap',
        SCOPE_CLASSES[scope],
      )}
    >
      {SCOPE_LABELS[scope]}
    </span>
  );
}
