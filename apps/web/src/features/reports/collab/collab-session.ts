import { HocuspocusProvider } from '@hocuspocus/provider';
import { reportDocumentName } from '@ris/editor';
import * as Y from 'yjs';
import { createStore, type StoreApi } from 'zustand';
import type { TSocketStatus, TSyncFacts } from './save-state.ts';

/** Someone in the document, as their awareness state (and their caret) shows them. */
export interface TCollabUser {
  id: string;
  name: string;
  color: string;
}

export interface TCollabState extends TSyncFacts {
  /** What the server allows on this connection; null until it has authenticated it. */
  scope: 'read-write' | 'readonly' | null;
  /** The other people in the document (one entry per person, whatever their tab count). */
  peers: TCollabUser[];
}

export interface TCollabSessionOptions {
  reportId: string;
  user: TCollabUser;
  /** The websocket URL of the collaboration server (`ws(s)://host/collab`). */
  url: string;
  /** The current ID token, read at every (re)connection. */
  getToken: () => string | null;
  /** A fresh token after the server refused the current one (null when there is none). */
  renewToken: (rejected: string) => Promise<string | null>;
}

export interface TCollabSession {
  reportId: string;
  user: TCollabUser;
  doc: Y.Doc;
  provider: HocuspocusProvider;
  state: StoreApi<TCollabState>;
  /** Tells the others whether this editor may write and has the focus (see insertLeader). */
  setPresence: (presence: Partial<TPresence>) => void;
  /** True when this tab's editor is the one to insert content sent to the report's editors. */
  isInsertLeader: () => boolean;
  /** Resolves once the server has every local change (at once when it already has). */
  whenSaved: (timeoutMs?: number) => Promise<void>;
  destroy: () => void;
}

/** What each editor shares beside its caret. */
export interface TPresence {
  writable: boolean;
  focused: boolean;
}

/**
 * Which open editor inserts content sent to every editor of the report (the realtime message
 * `insert-report-content`, e.g. dictation): one of them must, and only one, or the text would appear
 * once per editor. Every client decides the same from the shared awareness states: among writable
 * editors, a focused one first, then the lowest client id.
 */
export function insertLeader(states: ReadonlyMap<number, Record<string, unknown>>): number | null {
  let best: { clientId: number; focused: boolean } | null = null;
  for (const [clientId, state] of states) {
    const presence = state.presence as Partial<TPresence> | undefined;
    if (presence?.writable !== true) continue;
    const focused = presence.focused === true;
    if (!best || (focused && !best.focused) || (focused === best.focused && clientId < best.clientId)) {
      best = { clientId, focused };
    }
  }
  return best?.clientId ?? null;
}

/** `ws(s)://<this origin>/collab`. */
export function collabUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/collab`;
}

function isUser(value: unknown): value is TCollabUser {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Record<string, unknown>;
  return typeof user.id === 'string' && typeof user.name === 'string' && typeof user.color === 'string';
}

/** The other users in the awareness states, once each, in order of arrival. */
export function peersOf(
  states: ReadonlyMap<number, Record<string, unknown>>,
  ownClientId: number,
  ownUserId: string,
): TCollabUser[] {
  const seen = new Map<string, TCollabUser>();
  for (const [clientId, state] of states) {
    if (clientId === ownClientId) continue;
    const user = state.user;
    if (!isUser(user) || user.id === ownUserId || seen.has(user.id)) continue;
    seen.set(user.id, { id: user.id, name: user.name, color: user.color });
  }
  return [...seen.values()];
}

/**
 * One report's collaboration connection (Hocuspocus at /collab, document `report.{id}`): the Yjs
 * document the editor binds to, and a store of what the state line shows. The document lives as long
 * as the session, so changes made while offline stay in it and merge when the connection returns.
 */
export function createCollabSession(options: TCollabSessionOptions): TCollabSession {
  const doc = new Y.Doc();
  const state = createStore<TCollabState>()(() => ({
    status: 'connecting' as TSocketStatus,
    synced: false,
    unsyncedChanges: 0,
    everSynced: false,
    denied: null,
    scope: null,
    peers: [],
  }));
  let renewedFor: string | null = null;
  let destroyed = false;

  const provider = new HocuspocusProvider({
    url: options.url,
    name: reportDocumentName(options.reportId),
    document: doc,
    token: () => options.getToken() ?? '',
    onStatus: ({ status }) => state.setState({ status: status as TSocketStatus }),
    onSynced: ({ state: synced }) =>
      state.setState((current) => ({ synced, everSynced: current.everSynced || synced })),
    onUnsyncedChanges: ({ number }) => state.setState({ unsyncedChanges: number }),
    onAuthenticated: ({ scope }) => {
      renewedFor = null;
      state.setState({ scope, denied: null });
    },
    onAuthenticationFailed: ({ reason }) => {
      const token = options.getToken();
      // An expired token: renew it once and connect again; anything else is a refusal.
      if (token && renewedFor !== token) {
        renewedFor = token;
        void options.renewToken(token).then((fresh) => {
          if (destroyed) return;
          if (!fresh) {
            state.setState({ denied: reason || 'The report could not be opened' });
            return;
          }
          provider.disconnect();
          void provider.connect();
        });
        return;
      }
      state.setState({ denied: reason || 'You may not open this report' });
    },
    onClose: () => state.setState({ synced: false }),
    onAwarenessChange: () => {
      const awareness = provider.awareness;
      if (!awareness) return;
      state.setState({
        peers: peersOf(
          awareness.getStates() as Map<number, Record<string, unknown>>,
          doc.clientID,
          options.user.id,
        ),
      });
    },
  });

  function whenSaved(timeoutMs = 10_000): Promise<void> {
    const saved = (s: TCollabState) => s.status === 'connected' && s.synced && s.unsyncedChanges === 0;
    if (saved(state.getState())) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        unsubscribe();
        reject(new Error('The report is not saved yet: check the connection and try again'));
      }, timeoutMs);
      const unsubscribe = state.subscribe((current) => {
        if (!saved(current)) return;
        clearTimeout(timer);
        unsubscribe();
        resolve();
      });
    });
  }

  let presence: TPresence = { writable: false, focused: false };

  // The browser knows about a lost network long before the socket times out: say Offline at once
  // (typing goes on into the document) and connect again as soon as the network is back.
  const offline = (): void => provider.disconnect();
  const online = (): void => void provider.connect();
  if (typeof window !== 'undefined') {
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
  }

  return {
    reportId: options.reportId,
    user: options.user,
    doc,
    provider,
    state,
    setPresence(patch) {
      presence = { ...presence, ...patch };
      provider.awareness?.setLocalStateField('presence', presence);
    },
    isInsertLeader() {
      const awareness = provider.awareness;
      if (!awareness) return presence.writable;
      return insertLeader(awareness.getStates() as Map<number, Record<string, unknown>>) === doc.clientID;
    },
    whenSaved,
    destroy() {
      destroyed = true;
      if (typeof window !== 'undefined') {
        window.removeEventListener('offline', offline);
        window.removeEventListener('online', online);
      }
      provider.destroy();
      doc.destroy();
    },
  };
}
