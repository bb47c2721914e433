import { EventEmitter } from 'node:events';
import type { TReportStatus, TWorklistItemFacts } from '@ris/domain';

/**
 * What happened, announced in-process AFTER the transaction committed. Routes emit; the realtime
 * server (socket.io, with the Redis adapter across replicas) and other listeners subscribe, so
 * features never know about sockets.
 */
export type TDomainEventMap = {
  'worklist.item.changed': { organisationId: string; item: TWorklistItemFacts };
  'worklist.item.deleted': { organisationId: string; id: string; facilityId: string };
  'notification.created': {
    organisationId: string;
    userId: string;
    notification: {
      id: string;
      type: string;
      title: string;
      body: string | null;
      data: unknown;
      created_at: string;
    };
  };
  /**
   * A report's HTML changed (after commit). `source` 'rest' = a REST write (the collaboration server
   * pushes it into open editors); 'collaboration' = stored from a collaborative session.
   */
  'report.content.changed': {
    organisationId: string;
    reportId: string;
    studyId: string;
    html: string;
    version: number;
    source: 'rest' | 'collaboration';
  };
  /**
   * Content (HTML) to insert at the caret of the report's open editors, e.g. dictated text. The
   * realtime server sanitises it and sends 'insert-report-content' to the sockets on the topic
   * 'worklist-{studyId}' whose user may edit the report (realtime/report-editors.ts).
   */
  'report.insert-content': {
    organisationId: string;
    reportId: string;
    studyId: string;
    content: string;
  };
  /** A report's recorded dictations changed (added, transcribed, inserted, removed): screens refresh. */
  'dictation.recordings.changed': { organisationId: string; reportId: string; studyId: string };
  /** A report's status changed (DRAFTED on save, COMPLETED on finalize; editors turn read-only then). */
  'report.status.changed': {
    organisationId: string;
    reportId: string;
    studyId: string;
    status: TReportStatus;
    version: number;
  };
  /**
   * Templates or macros of an organisation were saved or deleted: words dictation should know
   * (the offline engine's language model is rebuilt, features/dictation/language-model).
   */
  'vocabulary.changed': { organisationId: string; source: 'templates' | 'macros' };
};

export type TDomainEventName = keyof TDomainEventMap;

export class DomainEvents {
  readonly #emitter = new EventEmitter({ captureRejections: false });

  constructor() {
    // Many sockets' rooms hang off one listener each; the default warning threshold is meaningless here.
    this.#emitter.setMaxListeners(0);
  }

  emit<TName extends TDomainEventName>(name: TName, payload: TDomainEventMap[TName]): void {
    // A failing listener must never undo or fail the request that already committed.
    for (const listener of this.#emitter.listeners(name)) {
      try {
        (listener as (event: TDomainEventMap[TName]) => void)(payload);
      } catch (error) {
        this.#emitter.emit('listener-error', error);
      }
    }
  }

  on<TName extends TDomainEventName>(
    name: TName,
    listener: (payload: TDomainEventMap[TName]) => void,
  ): () => void {
    this.#emitter.on(name, listener);
    return () => this.#emitter.off(name, listener);
  }

  onListenerError(listener: (error: unknown) => void): void {
    this.#emitter.on('listener-error', listener);
  }
}
