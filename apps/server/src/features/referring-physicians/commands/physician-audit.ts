// The audit trail of referring-physician administration: who created, changed or invited whom.
import type { TRequestOrigin } from '../../../auth/audit.ts';
import type { TScope } from '../../../access/scope.ts';
import type { TDbOrTx } from '../../../db/client.ts';
import { auditEvents } from '../../../db/schema/index.ts';

export type TPhysicianAuditAction =
  'referring_physician.created' | 'referring_physician.updated' | 'referring_physician.invited';

export async function recordPhysicianEvent(
  db: TDbOrTx,
  event: {
    action: TPhysicianAuditAction;
    scope: TScope;
    physicianId: string;
    origin: TRequestOrigin;
    data?: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(auditEvents).values({
    action: event.action,
    actorUserId: event.scope.principal.userId,
    organisationId: event.scope.organisationId,
    entityType: 'referring_physician',
    entityId: event.physicianId,
    ip: event.origin.ip,
    userAgent: event.origin.userAgent?.slice(0, 512) ?? null,
    data: event.data ?? null,
  });
}
