// Short-lived, signed download paths of stored report PDFs (the report's pdf_url). A path names the
// report, the user it was made for and its expiry; the signature binds those to the stored file, so
// a link stops working when it expires, when it is altered in any way, or when its file is no longer
// one the report serves: a draft's PDF once replaced. The signed final original (final_pdf_file_id)
// stays downloadable after an addendum replaces the current PDF, so a link to it keeps working
// until it expires. The key is derived from the identity token secret (never used as is).
import { deriveLinkKey, LinkSigner } from '../../auth/signed-links.ts';
import type { TConfig } from '../../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Signs and checks report PDF download paths (features/report-output/report-downloads.ts). */
    reportDownloads: ReportDownloads;
  }
}

/** What a download path carries besides the report id (the query string). */
export type TDownloadQuery = { uid: string; expires: number; signature: string };

/** The PDF files a report's download path may serve (the current one and the final original). */
export type TDownloadableFiles = { pdfFileId: string | null; finalPdfFileId: string | null };

const KEY_LABEL = 'ris/report-pdf-download/v1';

export class ReportDownloads {
  readonly #signer: LinkSigner;

  constructor(key: Buffer, ttlSeconds: number, now: () => Date = () => new Date()) {
    this.#signer = new LinkSigner(key, ttlSeconds, now);
  }

  /** The download path of a stored report PDF for this user, valid for the configured TTL. */
  pathFor(reportId: string, fileId: string, userId: string, expires?: number): string {
    const until = expires ?? this.#signer.expiresFromNow();
    const query = new URLSearchParams({
      uid: userId,
      expires: String(until),
      signature: this.#signer.sign([reportId, fileId, userId], until),
    });
    return `/api/v1/worklist/report/${reportId}/pdf?${query.toString()}`;
  }

  /** pdf_url of a report for a user: the current PDF's path, or null before a PDF is stored. */
  linkFor(userId: string): (report: { id: string; pdfFileId: string | null }) => string | null {
    return (report) => (report.pdfFileId ? this.pathFor(report.id, report.pdfFileId, userId) : null);
  }

  /**
   * The file a signed path grants, or null: expired, or the signature matches none of the
   * report's current files (forged, altered, or made for a PDF the report no longer has).
   */
  verify(reportId: string, query: TDownloadQuery, files: TDownloadableFiles): string | null {
    for (const fileId of [files.pdfFileId, files.finalPdfFileId]) {
      if (fileId && this.#signer.verify([reportId, fileId, query.uid], query.expires, query.signature))
        return fileId;
    }
    return null;
  }
}

/** The app's signer: its key is HMAC(identity token secret, label), so replicas sharing that secret agree. */
export async function createReportDownloads(config: TConfig): Promise<ReportDownloads> {
  return new ReportDownloads(await deriveLinkKey(config, KEY_LABEL), config.reportDownloadUrlTtlSeconds);
}
