// Collaboration concern 2: a report's Yjs document lives in PostgreSQL (reports.ydoc_state), and
// every store writes the Yjs state, the HTML and the version in one transaction (writeReportContent).
import type {
  Document,
  Extension,
  onChangePayload,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { applyUpdate, encodeStateAsUpdate } from 'yjs';
import type { TPrincipal } from '../auth/principal.ts';
import type { TDb } from '../db/client.ts';
import { reports, studies } from '../db/schema/index.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { publishReportContent, writeReportContent } from '../features/reports/report-content.ts';
import { AppError } from '../http/app-error.ts';
import type { ApiUpdatesExtension } from './api-updates.extension.ts';
import {
  documentStates,
  isClientContext,
  isServerContext,
  type TDocumentState,
} from './collaboration-context.ts';
import { canonicalHtml, initialStateFromHtml, reportIdOfDocument } from './report-document.ts';
import { guardedContent, SERVER_ORIGIN } from './store-guards.ts';

/**
 * A collaborative store by the same single editor within this time of the first store of a
 * report_versions row updates that row instead of adding one (the report's version still increases).
 */
export const COALESCE_VERSIONS_MS = 5 * 60_000;

/** How often a store merges a newer collaborative version and tries again before it gives up. */
const MAX_STORE_ATTEMPTS = 3;

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
 * - Change: remembers who changed the document since the last store (the last one is updated_by).
 * - Store (Hocuspocus calls it at most `debounce` ms after the last change, at least every
 *   `maxDebounce` ms while changes go on, and at once when the last client leaves): first the
 *   guards (store-guards.ts: editors who lost edit access, too long, unsafe content), then the
 *   document's HTML with its Yjs state through writeReportContent (source 'collaboration', expecting
 *   the version the document holds): a new version when the HTML changed (its report_versions row
 *   coalesced with the previous one by the same single editor within COALESCE_VERSIONS_MS), the Yjs
 *   state in any case; then 'report.content.changed' after commit. A store that finds a newer version
 *   merges it: a collaborative store of another replica (a Yjs state) is merged as a CRDT, nothing
 *   typed here is lost; a REST write (no Yjs state) replaces the content (catchUp). A final report is
 *   never stored.
 */
export function persistenceExtension({ db, events, log, apiUpdates }: TPersistenceDeps): Extension {
  async function store(document: Document, state: TDocumentState, editors: Map<string, TPrincipal>) {
    const inspection = await guardedContent({ db, log }, document, state, editors);
    // Unchanged content is written back as stored, so a store alone never makes a new version.
    const html = inspection.html === state.storedCanonical ? state.storedHtml : inspection.html;
    const userId = state.lastEditorId;
    const row = state.versionRow;
    const coalesce =
      row !== null &&
      row.userId === userId &&
      row.version === state.version &&
      editors.size === 1 &&
      editors.has(userId) &&
      Date.now() - row.startedAt < COALESCE_VERSIONS_MS;
    const ydocState = encodeStateAsUpdate(document);
    const written = await db.transaction((tx) =>
      writeReportContent(tx, {
        reportId: state.reportId,
        html,
        userId,
        expectedVersion: state.version,
        source: 'collaboration',
        ydocState,
        coalesceVersion: coalesce ? row.version : undefined,
      }),
    );
    state.approxStateBytes = ydocState.byteLength;
    if (written.version >= state.version) {
      if (written.changed) {
        state.versionRow = userId
          ? { version: written.version, userId, startedAt: coalesce ? row.startedAt : Date.now() }
          : null;
      }
      state.version = written.version;
      state.storedHtml = written.content;
      state.storedCanonical = inspection.html;
    }
    publishReportContent(events, written);
  }

  /**
   * A newer version was written meanwhile. Written by a collaborative store (another replica's, which
   * holds the same document through Redis): its Yjs state is merged into the document, which then
   * includes everything stored, and true is returned (store again). Written through REST: false.
   */
  async function mergeStored(document: Document, state: TDocumentState): Promise<boolean> {
    const [current] = await db
      .select({ version: reports.version, content: reports.content, ydocState: reports.ydocState })
      .from(reports)
      .where(eq(reports.id, state.reportId));
    if (!current?.ydocState || current.version <= state.version) return false;
    applyUpdate(document, current.ydocState, SERVER_ORIGIN);
    state.version = current.version;
    state.storedHtml = current.content;
    state.storedCanonical = canonicalHtml(current.content, state.reportId);
    state.versionRow = null;
    return true;
  }

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
      const initial = row.ydocState ?? initialStateFromHtml(reportId, row.version, row.content);
      applyUpdate(document, initial);
      documentStates.set(document, {
        reportId,
        studyId: row.studyId,
        organisationId: row.organisationId,
        version: row.version,
        storedHtml: row.content,
        storedCanonical: canonicalHtml(row.content, reportId),
        lastEditorId: null,
        editors: new Map(),
        versionRow: null,
        approxStateBytes: initial.byteLength,
        final: row.status === 'COMPLETED' || row.studyStatus === 'FINAL',
      });
    },

    async onChange({ document, context }: onChangePayload) {
      const state = documentStates.get(document);
      if (!state) return;
      if (isClientContext(context)) {
        state.lastEditorId = context.principal.userId;
        state.editors.set(context.principal.userId, context.principal);
      } else if (isServerContext(context) && context.userId) state.lastEditorId = context.userId;
    },

    async onStoreDocument({ document, documentName }: onStoreDocumentPayload) {
      const state = documentStates.get(document);
      if (!state || state.final) return;
      // Who changed the document up to now; changes arriving during this store count for the next.
      const editors = new Map(state.editors);
      state.editors.clear();
      try {
        for (let attempt = 1; ; attempt++) {
          try {
            await store(document, state, editors);
            return;
          } catch (error) {
            const merged =
              conflictReason(error) === 'stale-version' &&
              attempt < MAX_STORE_ATTEMPTS &&
              (await mergeStored(document, state));
            if (!merged) throw error;
          }
        }
      } catch (error) {
        for (const [userId, principal] of editors) {
          if (!state.editors.has(userId)) state.editors.set(userId, principal);
        }
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
