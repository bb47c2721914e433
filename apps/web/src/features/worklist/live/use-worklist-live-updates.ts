import { REALTIME_MESSAGE_TYPES, type TWorklistItem, type TWorklistListResponse } from '@ris/domain';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { notify } from '../../../stores/app-store.ts';
import { authStore } from '../../../stores/auth-store.ts';
import { settingsStore } from '../../../stores/settings-store.ts';
import { worklistKeys } from '../worklist-api.ts';
import { realtime } from '../../realtime/realtime.ts';
import { transcriptionistToast } from './transcriptionist-toasts.ts';
import {
  applyItemUpdate,
  changesAbilities,
  applyWorklistUpdate,
  parseWorklistUpdate,
  type TWorklistUpdate,
} from './worklist-updates.ts';

const COUNT_REFRESH_DELAY_MS = 400;

/** The item as the caches knew it before an update (for the transcriptionist's toasts). */
function knownItem(queryClient: QueryClient, id: string): TWorklistItem | undefined {
  const single = queryClient.getQueryData<TWorklistItem>(worklistKeys.item(id));
  if (single) return single;
  for (const [, page] of queryClient.getQueriesData<TWorklistListResponse>({
    queryKey: worklistKeys.lists(),
  })) {
    const found = page?.items.find((item) => item.id === id);
    if (found) return found;
  }
  return undefined;
}

function applyToCaches(queryClient: QueryClient, update: TWorklistUpdate, facilityIds: Set<string>): void {
  queryClient.setQueriesData<TWorklistListResponse>({ queryKey: worklistKeys.lists() }, (page) =>
    page ? applyWorklistUpdate(page, update, facilityIds) : page,
  );
  const id = update.action === 'upsert' ? update.item.id : update.id;
  const current = queryClient.getQueryData<TWorklistItem>(worklistKeys.item(id));
  if (current) {
    const next = applyItemUpdate(current, update);
    if (next) queryClient.setQueryData(worklistKeys.item(id), next);
    else queryClient.removeQueries({ queryKey: worklistKeys.item(id) });
    // The open study's abilities follow its status, assignee and collaboration: read them again.
    if (next && changesAbilities(current, update)) {
      void queryClient.invalidateQueries({ queryKey: worklistKeys.item(id) });
    }
  }
}

/**
 * Applies `worklist-status-update` messages to every cached worklist page and item while the screen
 * is open (spec §4), refreshes the counts shortly after, reads every page again when the connection
 * has rejoined its topics, and — with `toasts` — shows a transcriptionist the report and collaboration
 * toasts.
 */
export function useWorklistLiveUpdates({ toasts }: { toasts: boolean }): void {
  const queryClient = useQueryClient();
  const countTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    const unsubscribe = realtime.subscribe((message) => {
      if (message.type !== 'worklist-status-update') {
        // Other features' messages (notifications, dictation) are theirs to handle.
        if (!(REALTIME_MESSAGE_TYPES as readonly string[]).includes(message.type)) {
          console.warn('Realtime: unknown message type', message.type);
        }
        return;
      }
      const update = parseWorklistUpdate(message.data);
      if (!update) {
        console.warn('Realtime: malformed worklist update');
        return;
      }
      const { user, facilities } = authStore.getState();
      const facilityIds = new Set(facilities.map((facility) => facility.id));
      if (
        toasts &&
        settingsStore.getState().notifications.status_toasts &&
        user?.role === 'TRANSCRIPTIONIST' &&
        update.action === 'upsert' &&
        facilityIds.has(update.item.facility_fk)
      ) {
        const toast = transcriptionistToast(knownItem(queryClient, update.item.id), update.item);
        if (toast)
          notify(toast.kind, toast.message, toast.duration ? { duration: toast.duration } : undefined);
      }
      applyToCaches(queryClient, update, facilityIds);
      if (countTimer.current) clearTimeout(countTimer.current);
      countTimer.current = setTimeout(() => {
        void queryClient.invalidateQueries({ queryKey: worklistKeys.counts() });
      }, COUNT_REFRESH_DELAY_MS);
    });
    // Rejoined its topics (a reconnection, or the first connection after the screen read its pages):
    // changes made meanwhile sent no message this tab received, so every cached page is read again.
    const stopRejoined = realtime.onRejoined(
      () => void queryClient.invalidateQueries({ queryKey: worklistKeys.all }),
    );
    return () => {
      unsubscribe();
      stopRejoined();
      if (countTimer.current) clearTimeout(countTimer.current);
    };
  }, [queryClient, toasts]);
}
