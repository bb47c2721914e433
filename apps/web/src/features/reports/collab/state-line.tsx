import { CloudOff, Eye } from 'lucide-react';
import { useEffect } from 'react';
import { useStore } from 'zustand';
import { cn } from '../../../components/ui/cn.ts';
import type { TCollabSession } from './collab-session.ts';
import { SAVE_STATE_LABELS, hasUnsavedChanges, saveStateDetail, saveStateOf } from './save-state.ts';

const DOT = {
  connecting: 'bg-amber-500 animate-pulse',
  saving: 'bg-amber-500',
  saved: 'bg-emerald-500',
  offline: 'bg-red-500',
  denied: 'bg-red-500',
} as const;

function initials(name: string): string {
  const parts = name
    .replace(/^(dr\.?)\s+/i, '')
    .split(/\s+/)
    .filter(Boolean);
  return (
    (parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '')
  ).toUpperCase();
}

/**
 * Saved / Saving… / Offline (from the provider's connection and unacknowledged changes), read-only
 * when the server says so, and who else is in the report. While changes are unsaved the browser
 * asks before the page is closed.
 */
export function StateLine({ session, readOnly }: { session: TCollabSession; readOnly: boolean }) {
  const facts = useStore(session.state);
  const state = saveStateOf(facts);
  const unsaved = hasUnsavedChanges(facts);

  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent): void => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  return (
    <div className="flex flex-wrap items-center gap-3 text-[12px] text-fg-muted">
      <span
        role="status"
        data-save-state={state}
        title={saveStateDetail(state, facts)}
        className="inline-flex items-center gap-1.5"
      >
        {state === 'offline' ? (
          <CloudOff aria-hidden="true" className="size-3.5 text-danger" />
        ) : (
          <span aria-hidden="true" className={cn('size-1.5 rounded-full', DOT[state])} />
        )}
        {SAVE_STATE_LABELS[state]}
        <span className="sr-only">: {saveStateDetail(state, facts)}</span>
      </span>
      {readOnly ? (
        <span className="inline-flex items-center gap-1 rounded-full border border-line px-2 py-0.5">
          <Eye aria-hidden="true" className="size-3" /> Read only
        </span>
      ) : null}
      {facts.peers.length > 0 ? (
        <span className="flex items-center gap-1.5" aria-label="Also here">
          <span aria-hidden="true">Also here:</span>
          <ul className="flex items-center -space-x-1">
            {facts.peers.map((peer) => (
              <li
                key={peer.id}
                title={peer.name}
                data-peer={peer.name}
                className="flex size-6 items-center justify-center rounded-full border-2 border-surface text-[10px] font-semibold text-white"
                style={{ backgroundColor: peer.color }}
              >
                <span aria-hidden="true">{initials(peer.name)}</span>
                <span className="sr-only">{peer.name}</span>
              </li>
            ))}
          </ul>
        </span>
      ) : null}
    </div>
  );
}
