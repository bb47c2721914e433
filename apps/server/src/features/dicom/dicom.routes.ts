import {
  ZByUser,
  ZDeletedStudy,
  ZDeleteStudyQuery,
  ZDicomSeriesList,
  ZDicomZipUrl,
  ZErrorBody,
  ZSeriesThumbnailQuery,
  ZStudyUidQuery,
} from '@ris/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { assertActingAs } from '../../access/acting-as.ts';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope, type TScope } from '../../access/scope.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { publishStudies } from '../studies/commands/publish.ts';
import {
  authorizeArchiveDelete,
  deleteInArchive,
  markStudyDeleted,
} from './commands/delete-archived-study.ts';
import { recordStudyEvent } from '../studies/study-audit.ts';
import { createZipLinkSigner, zipUrlFor } from './dicom-zip-links.ts';
import { findStudiesByUid, findVisibleStudyByUid } from './dicom.queries.ts';
import { abortWhenClientLeaves, sendArchiveBody } from './stream-reply.ts';
import { requireStudyArchive, withArchive } from './study-archive.ts';
import { listSeries, middleInstance, renderedInstance } from './study-series.ts';

const security = [{ bearerAuth: [] }];
const tags = ['dicom'];
const ZArchiveErrors = {
  409: ZErrorBody.describe(
    'No archive is configured for the study, or the archive cannot do this (plain DICOMweb)',
  ),
  502: ZErrorBody.describe('ARCHIVE_UNAVAILABLE: the archive answered with an error'),
  503: ZErrorBody.describe('ARCHIVE_UNAVAILABLE: the archive cannot be reached or did not answer in time'),
};

/**
 * The study images calls of spec §7 beside the viewer: the zip URL, the delete in the archive, and
 * the series (with thumbnails) of the reporting screen. A study is addressed by its Study Instance
 * UID within what the caller may see on the worklist (404 otherwise, nothing asked of the archive).
 * The zip itself is served by ./dicom-zip.routes.ts (signed URL, no bearer).
 */
export const dicomRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const signer = await createZipLinkSigner(app);

  const visibleStudy = async (scope: TScope, studyUid: string) => {
    const study = await findVisibleStudyByUid(db, scope, studyUid);
    if (!study) throw AppError.notFound('Study');
    return study;
  };
  const scopeOf = (request: FastifyRequest) => loadScope(db, requirePrincipal(request));

  app.get(
    '/dicom/get-dicom-zip-url',
    {
      schema: {
        tags,
        security,
        summary: "A signed, short-lived URL of the study's images as a zip",
        description:
          'For a study the caller may see on the worklist (referring physicians: the studies they referred). The URL needs no bearer token, works for DICOM_ZIP_URL_TTL_SECONDS (5 minutes) and only for this study and this user; following it streams the zip from the archive (GET /dicom/zip/{id}).',
        querystring: ZStudyUidQuery,
        response: { 200: ZDicomZipUrl, ...ZErrorResponses, ...ZArchiveErrors },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      const study = await visibleStudy(scope, request.query.study_uid);
      await requireStudyArchive(app, study);
      return zipUrlFor(signer, study.id, scope.principal.userId);
    },
  );

  app.delete(
    '/dicom/delete-study',
    {
      schema: {
        tags,
        security,
        summary:
          'Delete a study in the archive and mark its worklist items DELETED (organisation admins only)',
        description:
          'Deletes the study in its Orthanc archive first (plain DICOMweb archives have no standard delete: 409), then marks every worklist item of the UID DELETED in one transaction (history row, worklist.item.deleted, archive_deleted_at). A study with a final report is refused (409). When the archive cannot be reached or fails (503/502 ARCHIVE_UNAVAILABLE) nothing changes. Should the database step fail after the archive deleted, the next sync from the archive marks the study deleted there.',
        querystring: ZDeleteStudyQuery,
        body: ZByUser.nullish(),
        response: { 200: ZDeletedStudy, ...ZErrorResponses, ...ZArchiveErrors },
      },
    },
    async (request) => {
      const scope = await scopeOf(request);
      assertActingAs(scope.principal, request.body?.by_user_id ?? request.query.by_user_id);
      const studyUid = request.query.study_uid;
      const study = await visibleStudy(scope, studyUid);
      authorizeArchiveDelete(scope, await findStudiesByUid(db, scope, studyUid));
      const deletion = await deleteInArchive(app, study);
      const at = new Date();
      const ids = await db.transaction(async (tx) => {
        const marked = await markStudyDeleted(tx, { scope, studyUid, at });
        await recordStudyEvent(tx, {
          action: 'study.archive_deleted',
          actorUserId: scope.principal.userId,
          study,
          request,
          data: {
            archive: deletion.connection.name,
            orthanc_id: deletion.orthancId,
            archive_had_study: deletion.orthancId !== null,
            worklist_ids: marked,
          },
        });
        return marked;
      });
      await publishStudies(app, scope.organisationId, ids);
      return { study_uid: studyUid, worklist_ids: ids, archive_deleted_at: at.toISOString() };
    },
  );

  app.get(
    '/dicom/series',
    {
      schema: {
        tags,
        security,
        summary:
          "The study's series from the archive (QIDO-RS): UID, modality, description, number, instances",
        querystring: ZStudyUidQuery,
        response: { 200: ZDicomSeriesList, ...ZErrorResponses, ...ZArchiveErrors },
      },
    },
    async (request) => {
      const study = await visibleStudy(await scopeOf(request), request.query.study_uid);
      const connection = await requireStudyArchive(app, study);
      return withArchive(connection, () => listSeries(connection, request.query.study_uid));
    },
  );

  app.get(
    '/dicom/series-thumbnail',
    {
      schema: {
        tags,
        security,
        summary:
          "A thumbnail of one of the study's series: the archive's rendering of its middle instance (JPEG)",
        description: 'Streamed from the archive (WADO-RS /rendered), privately cacheable by the browser.',
        querystring: ZSeriesThumbnailQuery,
        response: { ...ZErrorResponses, ...ZArchiveErrors },
      },
    },
    async (request, reply) => {
      const { study_uid: studyUid, series_uid: seriesUid } = request.query;
      const study = await visibleStudy(await scopeOf(request), studyUid);
      const connection = await requireStudyArchive(app, study);
      const signal = abortWhenClientLeaves(reply);
      const response = await withArchive(connection, async () => {
        const instanceUid = await middleInstance(connection, studyUid, seriesUid);
        return instanceUid
          ? renderedInstance(connection, { studyUid, seriesUid, instanceUid }, signal)
          : null;
      });
      if (!response || response.status === 404) {
        await response?.body?.cancel();
        throw AppError.notFound('Series');
      }
      const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
      if (!response.ok || !response.body || !/^image\/(jpeg|png)$/.test(mediaType)) {
        await response.body?.cancel();
        throw new AppError(
          'ARCHIVE_UNAVAILABLE',
          `The image archive "${connection.name}" could not render this series (it answered ${response.status}).`,
          { archive: connection.name, status: response.status },
          502,
        );
      }
      return sendArchiveBody(reply, response, {
        'content-type': mediaType,
        'cache-control': 'private, max-age=3600',
      });
    },
  );
};
