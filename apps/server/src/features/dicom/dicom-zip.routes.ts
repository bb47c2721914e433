import { Readable } from 'node:stream';
import { ZDicomZipLinkQuery, ZErrorBody, ZUuid } from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deletedStudyHidden, isStudyVisible } from '../../access/studies-scope.ts';
import { loadScope } from '../../access/scope.ts';
import { linkPrincipal } from '../../auth/link-principal.ts';
import { AppError } from '../../http/app-error.ts';
import { attachmentDisposition } from '../report-output/content-disposition.ts';
import { recordStudyEvent } from '../studies/study-audit.ts';
import { createZipLinkSigner, isZipLinkValid } from './dicom-zip-links.ts';
import { loadImageStudy, type TImageStudy } from './dicom.queries.ts';
import { abortWhenClientLeaves, sendStream } from './stream-reply.ts';
import { openStudyZip } from './study-zip.ts';
import { requireStudyArchive } from './study-archive.ts';

const refused = () => new AppError('FORBIDDEN', 'This download link is invalid or has expired');

/** "{patient id}_{study date}.zip" in plain ASCII (letters, digits, dot, dash, underscore). */
export function studyZipFileName(study: Pick<TImageStudy, 'patientIdentifier' | 'studyDatetime'>): string {
  const patient =
    study.patientIdentifier
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+|_+$/g, '')
      .slice(0, 64) || 'study';
  const date = study.studyDatetime
    ? study.studyDatetime.toISOString().slice(0, 10).replaceAll('-', '')
    : null;
  return `${date ? `${patient}_${date}` : patient}.zip`;
}

/**
 * GET of a study's zip URL: public (no bearer token, so the browser downloads it as a plain link,
 * with its own progress) and guarded by the URL's signature instead; the user it was made for must
 * still see the study. Streams Orthanc's archive of the study as it comes (never the whole study in
 * memory) and stops asking the archive when the browser goes away. Registered outside the
 * authenticated scope.
 */
export const dicomZipRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const signer = await createZipLinkSigner(app);

  app.get(
    '/dicom/zip/:id',
    {
      schema: {
        tags: ['dicom'],
        summary: "Download a study's images as a zip through its signed, short-lived URL",
        description:
          'No bearer token: the URL from GET /dicom/get-dicom-zip-url (made for one user and one study, valid for DICOM_ZIP_URL_TTL_SECONDS) is the authorisation. Refused (403, the same answer whatever the reason) once expired, when altered, or when the user may no longer see the study. The zip streams from the archive as application/zip (Orthanc makes it; for another DICOMweb archive the RIS builds it from WADO-RS as the instances arrive, one DICOM/IMnnnnn.dcm entry each) named "{patient id}_{study date}.zip", with Content-Length when the archive gives it. Every download is written to the audit log.',
        params: z.object({ id: ZUuid }),
        querystring: ZDicomZipLinkQuery,
        response: {
          400: ZErrorBody.describe('A missing or malformed uid, expires or signature'),
          403: ZErrorBody.describe('The link is invalid, expired or no longer authorised'),
          404: ZErrorBody.describe('The archive does not hold this study'),
          409: ZErrorBody.describe('No archive is configured for the study'),
          502: ZErrorBody.describe('ARCHIVE_UNAVAILABLE: the archive answered with an error'),
          503: ZErrorBody.describe('ARCHIVE_UNAVAILABLE: the archive cannot be reached'),
        },
      },
    },
    async (request, reply) => {
      const studyId = request.params.id;
      if (!isZipLinkValid(signer, studyId, request.query)) throw refused();
      const study = await loadImageStudy(db, studyId);
      const principal = study ? await linkPrincipal(db, request.query.uid, study.organisationId) : null;
      if (!study || !principal) throw refused();
      const scope = await loadScope(db, principal);
      if (!(await isStudyVisible(db, scope, study.id)) || deletedStudyHidden(principal, study))
        throw refused();

      const connection = await requireStudyArchive(app, study);
      const headers = {
        'content-type': 'application/zip',
        'content-disposition': attachmentDisposition(studyZipFileName(study)),
        'cache-control': 'no-store',
      };
      // A HEAD (a download manager's probe) asks the archive for nothing and downloads nothing.
      if (request.method === 'HEAD') return sendStream(reply, Readable.from([]), headers, null);
      // The browser going away ends the archive's work too.
      const zip = await openStudyZip(connection, study, abortWhenClientLeaves(reply));
      await recordStudyEvent(db, {
        action: 'study.images_downloaded',
        actorUserId: principal.userId,
        study,
        request,
        data: { archive: connection.name },
      });
      return sendStream(reply, zip.body, headers, zip.contentLength);
    },
  );
};
