// Commands that read a report from PostgreSQL (save as draft, submit for review, finalize) first
// store its collaborative document (asked through app.reportDocuments, events/report-documents.ts), so that they act on what the editors have sent rather than on
// what the last debounced store (COLLAB_STORE_DEBOUNCE_MS after the last change) wrote.
import type { Document, Hocuspocus } from '@hocuspocus/server';
import { reportDocumentName } from '@ris/editor';
import type { FastifyInstance } from 'fastify';
import type { TReportDocumentTarget } from '../events/report-documents.ts';
import { documentStates, type TCollaborationContext, type TServerContext } from './collaboration-context.ts';

/** How long a command waits for the store (a stuck store, e.g. Redis away, must not hold the request). */
const FLUSH_TIMEOUT_MS = 5_000;

const SERVER_CONTEXT: TServerContext = { kind: 'server', userId: null };

/** The debouncer key of a document's store (Hocuspocus's storeDocumentHooks and flushPendingStores). */
const storeKey = (document: Document) => `onStoreDocument-${document.name}`;

/**
 * Stores the report's document now if it is open on this replica with changes not stored yet, and
 * resolves once that store has finished (through the persistence extension, as a debounced store
 * would: same transaction, version, events). A no-op when the document is not open here or nothing
 * is pending. Never rejects: a failed store is logged by the persistence extension, and after
 * FLUSH_TIMEOUT_MS the command goes on with what is stored.
 *
 * Limitation with several replicas (REDIS_URL): a document is stored by the replica whose editors
 * changed it. When the editor's WebSocket is on another replica than this request, its pending
 * changes cannot be stored from here, and the command reads what that replica stored last (at most
 * COLLAB_STORE_DEBOUNCE_MS old). Finalize is exact regardless: the client sends the editor's HTML.
 */
export async function flushReportDocument(
  app: FastifyInstance,
  target: TReportDocumentTarget,
): Promise<void> {
  const hocuspocus = app.collaboration;
  const documents =
    'reportId' in target
      ? [hocuspocus.documents.get(reportDocumentName(target.reportId))]
      : [...hocuspocus.documents.values()].filter(
          (document) => documentStates.get(document)?.studyId === target.studyId,
        );
  const stores = documents.flatMap((document) => (document ? [checkpoint(hocuspocus, document)] : []));
  if (stores.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), FLUSH_TIMEOUT_MS);
  });
  const outcome = await Promise.race([Promise.all(stores), timeout]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    app.log.warn({ target }, 'storing the collaborative document took too long; using the stored report');
  }
}

/**
 * Stores the document now and makes what is stored a checkpoint: a save, submission or finalization
 * names that version, so later stores add new version rows instead of coalescing into it.
 */
async function checkpoint(hocuspocus: Hocuspocus<TCollaborationContext>, document: Document): Promise<void> {
  await storeNow(hocuspocus, document);
  const state = documentStates.get(document);
  if (state) state.versionRow = null;
}

async function storeNow(hocuspocus: Hocuspocus<TCollaborationContext>, document: Document): Promise<void> {
  if (document.isLoading) return;
  const key = storeKey(document);
  const { debouncer } = hocuspocus;
  if (debouncer.isDebounced(key)) {
    // The pending store, run now with its own payload (it waits for a store already running).
    await debouncer.executeNow(key);
    return;
  }
  if (!debouncer.isCurrentlyExecuting(key)) return;
  // A store is running and nothing changed since it began (a change would have been debounced
  // again): another store at once waits for it (one store of a document runs at a time) and writes
  // nothing new. lastTransactionOrigin null: not a direct connection leaving (no Redis delay).
  await hocuspocus.storeDocumentHooks(
    document,
    {
      instance: hocuspocus,
      document,
      documentName: document.name,
      clientsCount: document.getConnectionsCount(),
      lastContext: SERVER_CONTEXT,
      lastTransactionOrigin: null,
    },
    true,
  );
}
