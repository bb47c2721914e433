// Collaboration concern 2: a report's Yjs document lives in PostgreSQL (reports.ydoc_state), and
// every store writes the Yjs state, the HTML and the version in one transaction (writeReportContent).
import type {
  Extension,
  onChangePayload,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { applyUpdate, encodeStateAsUpdate } from 'yjs';
import type { TDb } from '../db/client.ts';
import { reports, studies } from '../db/schema/index.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { publishReportContent, writeReportContent } from '../features/reports/report-content.ts';
import { AppError } from '../http/app-error.ts';
import type { ApiUpdatesExtension } from './api-updates.extension.ts';
import { documentStates, isClientContext, isServerContext } from './collaboration-context.ts';
import {
  canonicalHtml,
  documentToHtml,
  initialStateFromHtml,
  reportIdOfDocument,
} from './report-document.ts';

type TPersistenceDeps = {
  db: TDb;
  events: DomainEvents;
  log: FastifyBaseLogger;
  apiUpdates: ApiUpdatesExtension;
};

function conflictReason(error: unknown): string | null {
  if (!(error instanceof AppError) || error.code !== 'CONFLICT') return null;
  const details: unknown = error.details;
  return details && typeof details === 'object' && 'reason' in details && typeof details.reason === 'string'
    ? details.reason
    : null;
}

/**
 * - Load: reports.ydoc_state, or, when there is none (a new report, or one written through REST
 *   since), a document built from reports.content with the editor's schema.
 * - Change: remembers the last user whose change reached the document (updated_by of the store).
 * - Store (Hocuspocus calls it at most `debounce` ms after the last change, at least every
 *   `maxDebounce` ms while changes go on, and at once when the last client leaves): the document's
 *   HTML, sanitised, with its Yjs state, through writeReportContent (source 'collaboration',
 *   expecting the version the document holds): a new version and report_versions row when the HTML
 *   changed, the Yjs state in any case; then 'report.content.changed' after commit. A store that
 *   finds a newer REST write brings the document up to it instead; a final report is never stored.
 */
export function persistenceExtension({ db, events, log, apiUpdates }: TPersistenceDeps): Extension {
  return {
    extensionName: 'ris-persistence',

    async onLoadDocument({ documentName, document }: onLoadDocumentPayload) {
      const reportId = reportIdOfDocument(documentName);
      if (!reportId) throw new Error(`not a report document: ${documentName}`);
      const [row] = await db
        .select({
          studyId: reports.studyId,
          organisationId: reports.organisationId,
          status: reports.status,
          studyStatus: studies.status,
          version: reports.version,
          content: reports.content,
          ydocState: reports.ydocState,
        })
        .from(reports)
        .innerJoin(studies, eq(studies.id, reports.studyId))
        .where(eq(reports.id, reportId));
      if (!row) throw new Error(`report ${reportId} not found`);
      applyUpdate(document, row.ydocState ?? initialStateFromHtml(reportId, row.version, row.content));
      documentStates.set(document, {
        reportId,
        studyId: row.studyId,
        organisationId: row.organisationId,
        version: row.version,
        storedHtml: row.content,
        storedCanonical: canonicalHtml(row.content),
        lastEditorId: null,
        final: row.status === 'COMPLETED' || row.studyStatus === 'FINAL',
      });
    },

    async onChange({ document, context }: onChangePayload) {
      const state = documentStates.get(document);
      if (!state) return;
      if (isClientContext(context)) state.lastEditorId = context.principal.userId;
      else if (isServerContext(context) && context.userId) state.lastEditorId = context.userId;
    },

    async onStoreDocument({ document, documentName }: onStoreDocumentPayload) {
      const state = documentStates.get(document);
      if (!state || state.final) return;
      const rendered = documentToHtml(document);
      // Unchanged content is written back as stored, so a store alone never makes a new version.
      const html = rendered === state.storedCanonical ? state.storedHtml : rendered;
      const expectedVersion = state.version;
      try {
        const written = await db.transaction((tx) =>
          writeReportContent(tx, {
            reportId: state.reportId,
            html,
            userId: state.lastEditorId,
            expectedVersion,
            source: 'collaboration',
            ydocState: encodeStateAsUpdate(document),
          }),
        );
        if (written.version >= state.version) {
          state.version = written.version;
          state.storedHtml = written.content;
          state.storedCanonical = rendered;
        }
        publishReportContent(events, written);
      } catch (error) {
        const reason = conflictReason(error);
        if (reason === 'stale-version') {
          await apiUpdates.catchUp(document, state.reportId);
          return;
        }
        if (reason === 'final' || reason === 'study-status') {
          // Finalized (or taken back) meanwhile: what is in PostgreSQL stays; nothing more is stored.
          state.final = reason === 'final';
          log.info({ documentName, reason }, 'collaborative changes not stored: the report may not change');
          return;
        }
        log.error({ err: error, documentName }, 'storing a collaborative document failed');
        throw error;
      }
    },
  };
}
