// Collaboration concern 3: a report written through the REST API reaches the editors that have its
// document open, and the document's next store builds on that write instead of overwriting it.
import type { Document, Extension, Hocuspocus, onConfigurePayload } from '@hocuspocus/server';
import { reportDocumentName } from '@ris/editor';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TDatabase } from '../db/client.ts';
import { listenToChannel } from '../db/pg-channel-listener.ts';
import { reports } from '../db/schema/index.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { documentStates, type TServerContext } from './collaboration-context.ts';
import { canonicalHtml, documentToHtml, replaceFragmentContent, reportFragment } from './report-document.ts';

/** PostgreSQL channel on which a replica tells the others that a report was written through REST. */
export const REPORT_CONTENT_CHANNEL = 'ris_report_content';

type TContent = { html: string; version: number };

type TApiUpdatesDeps = {
  database: TDatabase;
  events: DomainEvents;
  log: FastifyBaseLogger;
  /**
   * With several replicas (Redis): claims the push of one write, so the replicas that have the
   * document open do not all replace its content (the copies would add up). Null: one replica.
   */
  claim: ((key: string) => Promise<boolean>) | null;
};

const SERVER_CONTEXT: TServerContext = { kind: 'server', userId: null };

/**
 * On 'report.content.changed' with source 'rest' (after commit), the open document's content is
 * replaced by the written HTML through a direct connection: the editors see it at once, and the
 * document's version becomes the written one (a store then writes only the Yjs state). With Redis,
 * the write is also announced to the other replicas (PostgreSQL NOTIFY), and whichever replica claims
 * it first pushes it; Redis carries the change to the others.
 */
export class ApiUpdatesExtension implements Extension {
  readonly extensionName = 'ris-api-updates';
  readonly #deps: TApiUpdatesDeps;
  #instance: Hocuspocus | null = null;
  #stop: (() => Promise<void>) | null = null;

  constructor(deps: TApiUpdatesDeps) {
    this.#deps = deps;
  }

  async onConfigure({ instance }: onConfigurePayload): Promise<void> {
    this.#instance = instance;
  }

  /** Subscribes to REST writes (and, with several replicas, to other replicas' announcements). */
  async start(): Promise<void> {
    const { database, events, log, claim } = this.#deps;
    const off = events.on('report.content.changed', (event) => {
      if (event.source !== 'rest') return;
      this.#run(this.push(event.reportId, { html: event.html, version: event.version }));
      if (claim) this.#run(this.#announce(event.reportId, event.version));
    });
    const stopListening = claim
      ? await listenToChannel(
          database,
          REPORT_CONTENT_CHANNEL,
          (payload) => this.#run(this.#heard(payload)),
          log,
          { applicationName: 'ris-collaboration-listen' },
        )
      : null;
    this.#stop = async () => {
      off();
      await stopListening?.();
    };
  }

  async stop(): Promise<void> {
    await this.#stop?.();
    this.#stop = null;
  }

  /**
   * Puts written content into the report's document if it is open on this replica and the write is
   * newer than what the document holds. Resolves once the change is applied and stored.
   */
  async push(reportId: string, content: TContent): Promise<void> {
    const instance = this.#instance;
    const name = reportDocumentName(reportId);
    const document = instance?.documents.get(name);
    if (!instance || !document || !this.#accept(document, content)) return;
    if (this.#deps.claim && !(await this.#deps.claim(`${reportId}:${content.version}`))) return;
    const connection = await instance.openDirectConnection(name, SERVER_CONTEXT);
    try {
      await connection.transact((opened) =>
        replaceFragmentContent(reportFragment(opened), content.html, reportId),
      );
    } finally {
      // Stores now: the document's Yjs state then matches the REST write in PostgreSQL.
      await connection.disconnect();
    }
  }

  /**
   * After a store found a newer version in PostgreSQL (a REST write this replica has not pushed yet):
   * brings the document up to that version. Runs inside a store, so it changes the document directly
   * (a direct connection would wait for the running store); the change is stored by the next store.
   */
  async catchUp(document: Document, reportId: string): Promise<void> {
    const current = await this.#current(reportId);
    if (!current || !this.#accept(document, current)) return;
    if (this.#deps.claim && !(await this.#deps.claim(`${reportId}:${current.version}`))) return;
    document.transact(() => replaceFragmentContent(reportFragment(document), current.html, reportId), {
      source: 'local',
      context: SERVER_CONTEXT,
    });
  }

  /**
   * Records the newer version on the document; true when its content must be replaced (false when
   * the write is not newer, or the document already holds the same content).
   */
  #accept(document: Document, content: TContent): boolean {
    const state = documentStates.get(document);
    if (!state || content.version <= state.version) return false;
    const canonical = canonicalHtml(content.html, state.reportId);
    state.version = content.version;
    state.storedHtml = content.html;
    state.storedCanonical = canonical;
    return documentToHtml(document, state.reportId) !== canonical;
  }

  async #current(reportId: string): Promise<TContent | null> {
    const [row] = await this.#deps.database.db
      .select({ html: reports.content, version: reports.version })
      .from(reports)
      .where(eq(reports.id, reportId));
    return row ?? null;
  }

  async #announce(reportId: string, version: number): Promise<void> {
    await this.#deps.database.db.execute(
      sql`SELECT pg_notify(${REPORT_CONTENT_CHANNEL}, ${`${reportId}:${version}`})`,
    );
  }

  async #heard(payload: string | undefined): Promise<void> {
    const match = /^([0-9a-f-]{36}):(\d+)$/.exec(payload ?? '');
    if (!match?.[1]) return;
    const reportId = match[1];
    const document = this.#instance?.documents.get(reportDocumentName(reportId));
    const state = document ? documentStates.get(document) : undefined;
    if (!state || Number(match[2]) <= state.version) return;
    const current = await this.#current(reportId);
    if (current) await this.push(reportId, current);
  }

  #run(work: Promise<void>): void {
    work.catch((error: unknown) => this.#deps.log.error({ err: error }, 'collaboration API update failed'));
  }
}
