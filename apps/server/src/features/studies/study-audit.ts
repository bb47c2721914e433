// The audit trail of a study's images: opened in a viewer, downloaded, deleted from the archive —
// who, which study, when, from where.
import type { FastifyRequest } from 'fastify';
import type { TDbOrTx } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/index.ts';

export type TStudyAuditAction = 'study.viewer_opened' | 'study.images_downloaded' | 'study.archive_deleted';

/** What an audit row names of the study. */
export type TAuditedStudy = {
  id: string;
  organisationId: string;
  studyUid: string | null;
  accessionNumber: string;
};

export async function recordStudyEvent(
  db: TDbOrTx,
  event: {
    action: TStudyAuditAction;
    actorUserId: string;
    study: TAuditedStudy;
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
