import {
  label,
  statusTextColour,
  formatElapsedSince,
  type TPriorityTag,
  type TWorklistItem,
  priorityTagLabel,
} from '@ris/domain';
import { Clock } from 'lucide-react';
import { formatDuration } from '../../components/format-duration.ts';
import { cn } from '../../components/ui/cn.ts';
import { formatShortDateTime } from '../../components/format-date-time.ts';

const URGENT_TAGS: readonly TPriorityTag[] = ['URGENT', 'EMERGENCY', 'MLC'];

/** A status in its own colour (spec §4), with a dot so colour is not the only cue beside the text. */
export function StatusText({ status }: { status: string }) {
  return (
    <span className={cn('inline-flex items-center gap-1.5 font-medium', statusTextColour(status))}>
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
      {label(status)}
    </span>
  );
}

export function PriorityBadge({ tag }: { tag: TPriorityTag }) {
  const urgent = URGENT_TAGS.includes(tag);
  return (
    <span
      className={cn(
        'inline-flex h-4 shrink-0 items-center rounded px-1 text-[9.5px] font-semibold tracking-wide uppercase',
        urgent ? 'bg-danger-soft text-danger' : 'bg-surface-hover text-fg-muted',
      )}
    >
      {priorityTagLabel(tag)}
    </span>
  );
}

/** Study date-time and the time elapsed since (or since the order was created when undated). */
export function DateTimeCell({ item, now }: { item: TWorklistItem; now: Date }) {
  const when = new Date(item.datetime ?? item.created_at);
  if (Number.isNaN(when.getTime())) return <span className="text-fg-subtle">—</span>;
  return (
    <span className="flex flex-col leading-tight">
      <time dateTime={when.toISOString()} className="tabular-nums">
        {formatShortDateTime(when)}
      </time>
      <span className="text-[11px] text-fg-subtle tabular-nums">{formatElapsedSince(when, now)} ago</span>
    </span>
  );
}

export function Muted({ children }: { children: string | null | undefined }) {
  return children ? <>{children}</> : <span className="text-fg-subtle">—</span>;
}

/** The words of the clock badge: which target the item is past ("Past the 4 h turnaround target"). */
export function overdueLabel(targetMinutes: number): string {
  return `Past the ${formatDuration(targetMinutes)} turnaround target`;
}

/** A red clock: the item is past its priority's turnaround target (its words for screen readers). */
export function OverdueClock({ targetMinutes }: { targetMinutes: number }) {
  const text = overdueLabel(targetMinutes);
  return (
    <span role="img" aria-label={text} title={text} className="inline-flex shrink-0 text-danger">
      <Clock aria-hidden="true" className="size-3.5" />
    </span>
  );
}
