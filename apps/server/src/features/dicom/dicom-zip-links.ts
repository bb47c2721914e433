// Signed, short-lived URLs of a study's zip (GET /dicom/get-dicom-zip-url hands them out, GET
// /dicom/zip/{id} honours them). A URL names the worklist item, the user it was made for and its
// expiry; the signature binds the three, so it is worthless for another study, another user or
// after DICOM_ZIP_URL_TTL_SECONDS. Signing is auth/signed-links.ts, with a key of its own.
import { DICOM_ZIP_URL_TTL_SECONDS, type TDicomZipLinkQuery, type TDicomZipUrl } from '@ris/domain';
import type { FastifyInstance } from 'fastify';
import { deriveLinkKey, LinkSigner } from '../../auth/signed-links.ts';

/** The purpose label of the zip links' key (a report PDF link's signature means nothing here). */
export const DICOM_ZIP_KEY_LABEL = 'ris/dicom-zip-download/v1';

export async function createZipLinkSigner(app: FastifyInstance): Promise<LinkSigner> {
  const now = () => app.deps.clock?.() ?? new Date();
  return new LinkSigner(
    await deriveLinkKey(app.deps.config, DICOM_ZIP_KEY_LABEL),
    DICOM_ZIP_URL_TTL_SECONDS,
    now,
  );
}

/** The signed URL (a path on this server) of a study's zip for one user. */
export function zipUrlFor(signer: LinkSigner, studyId: string, userId: string): TDicomZipUrl {
  const expires = signer.expiresFromNow();
  const query = new URLSearchParams({
    uid: userId,
    expires: String(expires),
    signature: signer.sign([studyId, userId], expires),
  });
  return {
    url: `/api/v1/dicom/zip/${studyId}?${query.toString()}`,
    expires_at: new Date(expires * 1000).toISOString(),
  };
}

/** Whether a zip URL's query was signed for this study and has not expired. */
export function isZipLinkValid(signer: LinkSigner, studyId: string, query: TDicomZipLinkQuery): boolean {
  return signer.verify([studyId, query.uid], query.expires, query.signature);
}
