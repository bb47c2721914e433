import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { RealtimeConnection } from '../realtime/realtime-connection.ts';
import { realtime } from '../realtime/realtime.ts';

/** Changes arrive in bursts (a bulk assignment sends one message per study): one refetch per burst. */
export const HOME_REFRESH_DELAY_MS = 1_000;

/** Where live messages come from: the app's realtime connection (tests pass one with a fake socket). */
export type TLiveMessages = Pick<RealtimeConnection, 'subscribe' | 'onRejoined'>;

/**
 * Refetches the home summary shortly after worklist changes (`worklist-status-update`, which the
 * layout already listens to), once per burst, and at once when the connection has rejoined its
 * topics (changes made while it was down or joining sent no message it received). The summary's figures (medians, per-facility counts)
 * cannot be patched from one item, so it is read again rather than edited in the cache.
 */
export function useHomeLiveRefresh(
  queryKey: QueryKey,
  live: TLiveMessages = realtime,
  delayMs = HOME_REFRESH_DELAY_MS,
): void {
  const queryClient = useQueryClient();
  const keyText = JSON.stringify(queryKey);
  useEffect(() => {
    const key = JSON.parse(keyText) as QueryKey;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const unsubscribe = live.subscribe((message) => {
      if (message.type !== 'worklist-status-update') return;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void queryClient.invalidateQueries({ queryKey: key });
      }, delayMs);
    });
    const stopRejoined = live.onRejoined(() => void queryClient.invalidateQueries({ queryKey: key }));
    return () => {
      unsubscribe();
      stopRejoined();
      if (timer) clearTimeout(timer);
    };
  }, [queryClient, live, keyText, delayMs]);
}
