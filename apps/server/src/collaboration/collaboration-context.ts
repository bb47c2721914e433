// What the collaboration extensions share: the context of a connection (set by authentication) and
// the state of each open document (set by persistence when it loads the document).
import type { Document } from '@hocuspocus/server';
import type { TPrincipal } from '../auth/principal.ts';

/** Context of a client connection (a browser's provider), set by the authentication extension. */
export type TClientContext = {
  kind: 'client';
  principal: TPrincipal;
  /** The user's name as the server knows it (shown with their caret). */
  displayName: string;
  reportId: string;
  studyId: string;
  /** 'read' connections are read-only: the server refuses their document updates. */
  access: 'edit' | 'read';
};

/** Context of the server's own direct connections (pushing a REST write into the document). */
export type TServerContext = {
  kind: 'server';
  /** Who made the change the server applies (reports.updated_by of the store that follows). */
  userId: string | null;
};

export type TCollaborationContext = TClientContext | TServerContext;

export function isClientContext(context: unknown): context is TClientContext {
  return typeof context === 'object' && context !== null && 'kind' in context && context.kind === 'client';
}

export function isServerContext(context: unknown): context is TServerContext {
  return typeof context === 'object' && context !== null && 'kind' in context && context.kind === 'server';
}

/** An open report document on this replica. */
export type TDocumentState = {
  reportId: string;
  studyId: string;
  organisationId: string;
  /**
   * The report version the document's content is known to include (loaded, stored, or pushed in by
   * a REST write). A store writes with this as the expected version, so it never overwrites a newer
   * REST write with stale content.
   */
  version: number;
  /** The report's HTML at that version, exactly as stored (reports.content). */
  storedHtml: string;
  /** storedHtml as the editor's schema renders it: when the document renders the same, nothing changed. */
  storedCanonical: string;
  /** The last user whose change reached the document (updated_by of the next store). */
  lastEditorId: string | null;
  /**
   * Every client user whose change reached the document since the last store, with the principal
   * they connected with: a store re-checks that each may still edit (another replica may have
   * revoked it) and credits them.
   */
  editors: Map<string, TPrincipal>;
  /**
   * The report_versions row this document's last store wrote (not a REST write): a later store by the
   * same single editor within COALESCE_VERSIONS_MS updates it in place instead of adding a row.
   */
  versionRow: { version: number; userId: string; startedAt: number } | null;
  /** About how many bytes the document's Yjs state takes (exact after load and store, estimated between). */
  approxStateBytes: number;
  /** COMPLETED report or a study whose report may no longer change: nothing is stored. */
  final: boolean;
};

const states = new WeakMap<Document, TDocumentState>();

export const documentStates = {
  get: (document: Document): TDocumentState | undefined => states.get(document),
  set: (document: Document, state: TDocumentState): void => {
    states.set(document, state);
  },
};
