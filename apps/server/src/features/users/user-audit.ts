// The audit trail of user administration: who created, changed, invited or started a password reset
// for whom. Never a password or a link's token (a link handed over in person is recorded as that).
import type { TRequestOrigin } from '../../auth/audit.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { auditEvents } from '../../db/schema/index.ts';

export type TUserAdminAuditAction =
  'user.created' | 'user.updated' | 'user.invitation_sent' | 'user.password_reset_started';

export async function recordUserAdminEvent(
  db: TDbOrTx,
  event: {
    action: TUserAdminAuditAction;
    actorUserId: string;
    organisationId: string;
    subjectUserId: string;
    origin: TRequestOrigin;
    data?: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(auditEvents).values({
    action: event.action,
    actorUserId: event.actorUserId,
    organisationId: event.organisationId,
    entityType: 'user',
    entityId: event.subjectUserId,
    ip: event.origin.ip,
    userAgent: event.origin.userAgent?.slice(0, 512) ?? null,
    data: event.data ?? null,
  });
}
