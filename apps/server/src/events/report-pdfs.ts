// What the reports feature asks of report output, without importing it (report output reads the
// report policy and queries, so it sits above reports): run a report command in a transaction that
// also stores the report's new PDF. features/report-output/report-pdf-store.ts does it; app.ts wires
// it as app.reportPdfs.
import 'fastify';
import type { TTx } from '../db/client.ts';
import type { reports } from '../db/schema/index.ts';

type TReportRow = typeof reports.$inferSelect;

/** Which PDF a command's result asks for: the report's, its author, and whether it is the final original. */
export type TReportPdfTarget = { report: TReportRow; createdBy: string | null; final: boolean };

export type ReportPdfStore = {
  /**
   * Runs `command` and stores the report's new PDF (what `pdfOf` names) as one unit: a render that
   * fails leaves nothing written, and a long render never holds a transaction open.
   */
  runWith<R>(
    command: (tx: TTx) => Promise<R>,
    pdfOf: (result: R) => TReportPdfTarget,
  ): Promise<{ result: R; report: TReportRow }>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Report commands that store the report's PDF with them (events/report-pdfs.ts). */
    reportPdfs: ReportPdfStore;
  }
}
