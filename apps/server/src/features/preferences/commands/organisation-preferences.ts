import type { TOrganisationPreferences, TPreferencesPatch } from '@ris/domain';
import { sql } from 'drizzle-orm';
import type { TScope } from '../../../access/scope.ts';
import type { TRequestOrigin } from '../../../auth/audit.ts';
import type { TDb } from '../../../db/client.ts';
import { auditEvents, userPreferences } from '../../../db/schema/index.ts';
import { AppError } from '../../../http/app-error.ts';
import { canWriteOrganisationPreferences } from '../preferences.policy.ts';
import { presentOrganisationPreferences } from '../preferences.presenter.ts';

/**
 * POST /user/preference: an admin replaces their organisation's document (what everyone of it gets
 * unless they chose otherwise), audited with the fields it sets.
 */
export async function saveOrganisationPreferences(
  db: TDb,
  scope: TScope,
  document: TPreferencesPatch,
  origin: TRequestOrigin,
): Promise<TOrganisationPreferences> {
  if (!canWriteOrganisationPreferences(scope.principal)) {
    throw new AppError('FORBIDDEN', 'Only an administrator may set the organisation’s preferences');
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(userPreferences)
      .values({ scope: 'ORGANISATION', organisationId: scope.organisationId, settings: document })
      .onConflictDoUpdate({
        target: userPreferences.organisationId,
        targetWhere: sql`${userPreferences.scope} = 'ORGANISATION'`,
        set: { settings: document, updatedAt: sql`now()` },
      })
      .returning();
    if (!row) throw new Error('organisation preference upsert returned nothing');
    await tx.insert(auditEvents).values({
      organisationId: scope.organisationId,
      actorUserId: scope.principal.userId,
      action: 'preferences.organisation_update',
      entityType: 'organisation',
      entityId: scope.organisationId,
      ip: origin.ip,
      userAgent: origin.userAgent?.slice(0, 512) ?? null,
      data: { fields: Object.keys(document) },
    });
    return presentOrganisationPreferences(row);
  });
}
