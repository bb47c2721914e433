import type { TDbOrTx } from '../db/client.ts';
import { auditEvents } from '../db/schema/index.ts';

/** Where a request came from, for audit rows and session records. */
export type TRequestOrigin = { ip: string | null; userAgent: string | null };

export type TAuthAuditAction =
  | 'auth.sign_up'
  | 'auth.sign_up_existing_email'
  | 'auth.sign_in'
  | 'auth.sign_in_failed'
  | 'auth.account_under_attack'
  | 'auth.refresh_reuse'
  | 'auth.sign_out'
  | 'auth.sign_out_all'
  | 'auth.password_reset_requested'
  | 'auth.password_reset'
  | 'auth.password_changed'
  | 'auth.email_link_requested'
  | 'auth.user_disabled'
  | 'auth.tokens_revoked';

/** One identity audit event. `data` must never hold a password or a token. */
export async function recordAuthEvent(
  db: TDbOrTx,
  event: {
    action: TAuthAuditAction;
    actorUserId?: string | null;
    organisationId?: string | null;
    subjectUserId?: string | null;
    origin?: TRequestOrigin;
    data?: Record<string, unknown>;
  },
): Promise<void> {
  const subject = event.subjectUserId ?? event.actorUserId ?? null;
  await db.insert(auditEvents).values({
    action: event.action,
    actorUserId: event.actorUserId ?? null,
    organisationId: event.organisationId ?? null,
    entityType: subject ? 'user' : null,
    entityId: subject,
    ip: event.origin?.ip ?? null,
    userAgent: event.origin?.userAgent?.slice(0, 512) ?? null,
    data: event.data ?? null,
  });
}
