// What a feature may ask of the collaboration server, without importing it (features sit below the
// doors): store a report's open collaborative document now. Commands that read a report from
// PostgreSQL (save as draft, submit for review, finalize) ask first, so they act on what the editors
// have typed rather than on the last debounced store. collaboration/flush-report-document.ts does
// it; app.ts wires it as app.reportDocuments.
import 'fastify';

/** One report's document, or every open document of a study's report. */
export type TReportDocumentTarget = { reportId: string } | { studyId: string };

export type ReportDocumentFlusher = {
  /**
   * Stores the document now if it is open on this replica with changes not stored yet; resolves once
   * stored (or after a time limit), never rejects. A no-op when nothing is open or pending.
   */
  flush(target: TReportDocumentTarget): Promise<void>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Stores open collaborative report documents on request (events/report-documents.ts). */
    reportDocuments: ReportDocumentFlusher;
  }
}
