// Append-only audit trail (sign-ins, changes to users, studies, reports, sharing ...).
import { index, inet, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, primaryId } from './columns.ts';

/**
 * One audited event. Deliberately without foreign keys: the trail must outlive (and never be
 * rewritten by) the deletion of the organisation, user or entity it mentions.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: primaryId(),
    organisationId: uuid('organisation_id'),
    actorUserId: uuid('actor_user_id'),
    /** Dotted verb, e.g. 'auth.sign_in', 'study.assign', 'report.finalize'. */
    action: text('action').notNull(),
    entityType: text('entity_type'),
    entityId: text('entity_id'),
    ip: inet('ip'),
    userAgent: text('user_agent'),
    data: jsonb('data').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_events_organisation_created_idx').on(t.organisationId, t.createdAt),
    index('audit_events_entity_idx').on(t.entityType, t.entityId),
    index('audit_events_actor_created_idx').on(t.actorUserId, t.createdAt),
  ],
);
