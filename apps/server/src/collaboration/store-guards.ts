// What a store checks before it writes a collaborative document: that its editors may still edit it
// (another replica may have revoked that), that it is not too long, and that it holds nothing but
// sanitised report content. Each failed check resets the live document, so every client converges
// on what is stored.
import type { Document } from '@hocuspocus/server';
import { MAX_REPORT_CONTENT_LENGTH } from '@ris/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { TPrincipal } from '../auth/principal.ts';
import type { TDb } from '../db/client.ts';
import { isClientContext, type TDocumentState, type TServerContext } from './collaboration-context.ts';
import { reportGrantFor } from '../features/reports/report-grant.ts';
import { inspectDocument, resetDocument, type TDocumentInspection } from './report-document.ts';

/** Close code that makes the provider reconnect and authenticate again (Hocuspocus' "Reset Connection"). */
export const RECONNECT = { code: 4205, reason: 'access-changed' };

/** Close of an editor whose change made the report longer than MAX_REPORT_CONTENT_LENGTH. */
export const REPORT_TOO_LARGE = { code: 4413, reason: 'report-too-large' };

const SERVER_CONTEXT: TServerContext = { kind: 'server', userId: null };

/** Origin of the server's own resets: a change like a REST push (stored, relayed, announced over Redis). */
export const SERVER_ORIGIN = { source: 'local', context: SERVER_CONTEXT } as const;

/** Documents whose repair did not give a clean document (schema and sanitiser disagree): not retried. */
const unrepairable = new WeakSet<Document>();

type TGuardDeps = { db: TDb; log: FastifyBaseLogger };

function closeConnections(document: Document, userIds: Set<string>, close: { code: number; reason: string }) {
  for (const connection of document.getConnections()) {
    const context: unknown = connection.context;
    if (isClientContext(context) && context.access === 'edit' && userIds.has(context.principal.userId)) {
      connection.webSocket.close(close.code, close.reason);
    }
  }
}

/**
 * The users among `editors` who may no longer edit the report (re-checked in PostgreSQL: the
 * assignment, the collaboration switch or the report's status may have changed on another replica).
 */
async function revokedEditors(db: TDb, reportId: string, editors: Map<string, TPrincipal>) {
  const revoked = new Set<string>();
  for (const [userId, principal] of editors) {
    if ((await reportGrantFor(db, principal, reportId)).access !== 'edit') revoked.add(userId);
  }
  return revoked;
}

/**
 * Runs the checks and returns the document's content to store. Changes of editors who lost edit
 * access are not stored: the document goes back to the stored HTML and their connections reconnect
 * (to come back read-only). A change that makes the report longer than MAX_REPORT_CONTENT_LENGTH is
 * refused the same way (REPORT_TOO_LARGE), so that later changes are still stored. A document that
 * holds more than its sanitised HTML (see inspectDocument) is replaced by that HTML.
 */
export async function guardedContent(
  { db, log }: TGuardDeps,
  document: Document,
  state: TDocumentState,
  editors: Map<string, TPrincipal>,
): Promise<TDocumentInspection> {
  const revoked = await revokedEditors(db, state.reportId, editors);
  if (revoked.size > 0) {
    log.warn(
      { documentName: document.name },
      'collaborative changes of editors who lost edit access dropped',
    );
    resetDocument(document, state.reportId, state.storedHtml, SERVER_ORIGIN);
    closeConnections(document, revoked, RECONNECT);
    for (const userId of revoked) editors.delete(userId);
  }
  let inspection = inspectDocument(document, state.reportId);
  if (inspection.html.length > MAX_REPORT_CONTENT_LENGTH) {
    log.warn({ documentName: document.name }, 'collaborative change refused: the report is too long');
    resetDocument(document, state.reportId, state.storedHtml, SERVER_ORIGIN);
    closeConnections(document, new Set(editors.keys()), REPORT_TOO_LARGE);
    inspection = inspectDocument(document, state.reportId);
  }
  if (!inspection.clean && !unrepairable.has(document)) {
    log.warn({ documentName: document.name }, 'collaborative document held unsafe content: repaired');
    resetDocument(document, state.reportId, inspection.html, SERVER_ORIGIN);
    const repaired = inspectDocument(document, state.reportId);
    if (!repaired.clean) {
      unrepairable.add(document);
      log.error({ documentName: document.name }, 'the sanitised report does not render clean in the editor');
    }
    inspection = repaired;
  }
  return inspection;
}
