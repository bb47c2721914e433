import { cn } from '../../components/ui/cn.ts';
import { useConnectionState } from './realtime.ts';

const TEXT = { connected: 'Live', connecting: 'Connecting…', disconnected: 'Offline' } as const;
const DOT = {
  connected: 'bg-emerald-500',
  connecting: 'bg-amber-500 animate-pulse',
  disconnected: 'bg-red-500',
} as const;
const TITLE = {
  connected: 'Live updates are on',
  connecting: 'Connecting to live updates',
  disconnected: 'Live updates are off: reload to see changes',
} as const;

/** The realtime connection's state, announced politely when it changes. */
export function ConnectionIndicator() {
  const status = useConnectionState();
  return (
    <span
      role="status"
      title={TITLE[status]}
      data-connection={status}
      className="inline-flex h-7 items-center gap-1.5 rounded-full border border-line bg-surface-raised px-2.5 text-xs text-fg-muted"
    >
      <span aria-hidden="true" className={cn('size-1.5 rounded-full', DOT[status])} />
      <span aria-hidden="true">{TEXT[status]}</span>
      <span className="sr-only">{TITLE[status]}</span>
    </span>
  );
}
