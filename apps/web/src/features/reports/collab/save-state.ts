/** The collaboration connection's state as the provider reports it. */
export type TSocketStatus = 'connecting' | 'connected' | 'disconnected';

export interface TSyncFacts {
  status: TSocketStatus;
  /** The first sync with the server finished on the current connection. */
  synced: boolean;
  /** Local changes the server has not acknowledged yet (the provider's count). */
  unsyncedChanges: number;
  /** A sync finished at least once since the page opened. */
  everSynced: boolean;
  /** The server refused the connection (reason), or null. */
  denied: string | null;
}

export type TSaveState = 'connecting' | 'saving' | 'saved' | 'offline' | 'denied';

/**
 * What the editor's state line says. `saved` only when connected, synced and every local change
 * acknowledged; `saving` while changes are on their way; `offline` once disconnected after having
 * been connected (or with local changes): the Yjs document keeps every change and merges them on
 * reconnect.
 */
export function saveStateOf(facts: TSyncFacts): TSaveState {
  if (facts.denied !== null) return 'denied';
  if (facts.status !== 'connected') {
    return facts.everSynced || facts.unsyncedChanges > 0 ? 'offline' : 'connecting';
  }
  if (!facts.synced) return facts.everSynced ? 'saving' : 'connecting';
  return facts.unsyncedChanges > 0 ? 'saving' : 'saved';
}

export const SAVE_STATE_LABELS: Record<TSaveState, string> = {
  connecting: 'Connecting…',
  saving: 'Saving…',
  saved: 'Saved',
  offline: 'Offline',
  denied: 'Not connected',
};

/** The longer explanation beside the label (title and screen readers). */
export function saveStateDetail(state: TSaveState, facts: TSyncFacts): string {
  switch (state) {
    case 'connecting':
      return 'Connecting to the report';
    case 'saving':
      return 'Saving your changes';
    case 'saved':
      return 'Every change is saved';
    case 'offline':
      return facts.unsyncedChanges > 0
        ? 'Offline: your changes are kept in this tab and saved when the connection returns'
        : 'Offline: reconnecting';
    case 'denied':
      return facts.denied ?? 'The report could not be opened';
  }
}

/** True when closing the page now would lose changes (the browser then asks first). */
export function hasUnsavedChanges(facts: TSyncFacts): boolean {
  return facts.unsyncedChanges > 0;
}
