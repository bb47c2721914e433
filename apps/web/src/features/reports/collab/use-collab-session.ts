import { useEffect, useSyncExternalStore } from 'react';
import { sessionBridge } from '../../../api/session-bridge.ts';
import { collabUrl, createCollabSession, type TCollabSession, type TCollabUser } from './collab-session.ts';

interface Entry {
  session: TCollabSession;
  refs: number;
  closing: ReturnType<typeof setTimeout> | null;
}

const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

function keyOf(reportId: string, userId: string): string {
  return `${reportId}:${userId}`;
}

/**
 * Takes a reference to a report's session, creating it on first use; the returned function lets go,
 * and the last one out closes it on the next tick (so a remount — React's strict mode, a re-render
 * with new props — keeps the same document and connection).
 */
function acquire(reportId: string, user: TCollabUser): () => void {
  const key = keyOf(reportId, user.id);
  let entry = entries.get(key);
  if (entry) {
    entry.refs += 1;
    if (entry.closing) clearTimeout(entry.closing);
    entry.closing = null;
  } else {
    entry = {
      session: createCollabSession({
        reportId,
        user,
        url: collabUrl(),
        getToken: () => sessionBridge.token(),
        renewToken: (rejected) => sessionBridge.renewToken(rejected),
      }),
      refs: 1,
      closing: null,
    };
    entries.set(key, entry);
    changed();
  }
  const held = entry;
  return () => {
    held.refs -= 1;
    if (held.refs > 0) return;
    held.closing = setTimeout(() => {
      if (entries.get(key) !== held || held.refs > 0) return;
      entries.delete(key);
      held.session.destroy();
      changed();
    }, 0);
  };
}

/** The collaboration session of a report for the signed-in user, or null while it is being made. */
export function useCollabSession(reportId: string | null, user: TCollabUser | null): TCollabSession | null {
  const userId = user?.id ?? null;
  const name = user?.name ?? '';
  const color = user?.color ?? '';
  useEffect(() => {
    if (!reportId || !userId) return;
    return acquire(reportId, { id: userId, name, color });
  }, [reportId, userId, name, color]);
  return useSyncExternalStore(subscribe, () =>
    reportId && userId ? (entries.get(keyOf(reportId, userId))?.session ?? null) : null,
  );
}
