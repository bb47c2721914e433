// The audit trail of study images leaving the archive or being deleted from it: who, which study, when.
import type { FastifyRequest } from 'fastify';
import type { TDbOrTx } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/index.ts';
import type { TImageStudy } from './dicom.queries.ts';

export type TDicomAuditAction = 'study.images_downloaded' | 'study.archive_deleted';

export async function recordDicomEvent(
  db: TDbOrTx,
  event: {
    action: TDicomAuditAction;
    actorUserId: string;
    study: Pick<TImageStudy, 'id' | 'organisationId' | 'studyUid' | 'accessionNumber'>;
    request: FastifyRequest;
    data?: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(auditEvents).values({
    action: event.action,
    actorUserId: event.actorUserId,
    organisationId: event.study.organisationId,
    entityType: 'study',
    entityId: event.study.id,
    ip: event.request.ip || null,
    userAgent: event.request.headers['user-agent']?.slice(0, 512) ?? null,
    data: { study_uid: event.study.studyUid, accession_number: event.study.accessionNumber, ...event.data },
  });
}
