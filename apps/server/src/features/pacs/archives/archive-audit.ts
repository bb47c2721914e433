// The audit trail of archive configuration: who created, changed or removed which archive, and
// which fields changed. Never the secret (only that it was replaced or cleared).
import type { TRequestOrigin } from '../../../auth/audit.ts';
import type { TDbOrTx } from '../../../db/client.ts';
import { auditEvents } from '../../../db/schema/index.ts';

export type TArchiveAuditAction = 'pacs_archive.created' | 'pacs_archive.updated' | 'pacs_archive.deleted';

export async function recordArchiveEvent(
  db: TDbOrTx,
  event: {
    action: TArchiveAuditAction;
    actorUserId: string;
    organisationId: string;
    archiveId: string;
    origin: TRequestOrigin;
    data: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(auditEvents).values({
    action: event.action,
    actorUserId: event.actorUserId,
    organisationId: event.organisationId,
    entityType: 'pacs_archive',
    entityId: event.archiveId,
    ip: event.origin.ip,
    userAgent: event.origin.userAgent?.slice(0, 512) ?? null,
    data: event.data,
  });
}
