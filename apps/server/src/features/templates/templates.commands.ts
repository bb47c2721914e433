import type { TSaveTemplateBody } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TDb } from '../../db/client.ts';
import { templates } from '../../db/schema/index.ts';
import { sanitizeReportHtml } from '../../html/sanitize-report-html.ts';
import { AppError } from '../../http/app-error.ts';
import { canTemplate, templateRefusal } from './templates.policy.ts';
import { findReadableTemplate, type TTemplateRow } from './templates.queries.ts';

function refuse(action: 'use' | 'create' | 'change', scope: TTemplateRow['scope']): never {
  const { message, field } = templateRefusal(action, scope);
  throw new AppError('FORBIDDEN', message, field ? { field } : undefined);
}

/**
 * POST /radiologist/template. Without `id` it creates a template in the caller's organisation (USER:
 * owned by the caller; ORGANISATION: admins only). With `id` it updates a template the caller can
 * see (404 otherwise) and may change (403 otherwise), locked for the transaction. The content is
 * sanitised with the report allow-list.
 */
export async function saveTemplate(
  db: TDb,
  scope: TScope,
  body: TSaveTemplateBody,
): Promise<{ row: TTemplateRow; created: boolean }> {
  const { principal } = scope;
  if (!canTemplate(principal, 'use')) refuse('use', 'USER');
  // No report id: a template holds no images (it is copied into many reports).
  const content = sanitizeReportHtml(body.content);
  const { id } = body;
  if (id === undefined) {
    const target = body.scope ?? 'USER';
    if (!canTemplate(principal, 'create', { scope: target })) refuse('create', target);
    const [row] = await db
      .insert(templates)
      .values({
        organisationId: scope.organisationId,
        scope: target,
        ownerUserId: target === 'USER' ? principal.userId : null,
        name: body.name,
        modalityGroup: body.modality ?? null,
        bodyPart: body.body_part || null,
        content,
        status: body.status ?? 'ACTIVE',
        createdBy: principal.userId,
      })
      .returning();
    if (!row) throw new Error('template insert returned nothing');
    return { row, created: true };
  }
  return db.transaction(async (tx) => {
    const existing = await findReadableTemplate(tx, scope, id, { forUpdate: true });
    if (!existing) throw AppError.notFound('Template');
    if (!canTemplate(principal, 'change', existing)) refuse('change', existing.scope);
    const target = body.scope ?? existing.scope;
    if (target !== existing.scope && !canTemplate(principal, 'create', { scope: target })) {
      refuse('create', target);
    }
    const ownerUserId =
      target !== 'USER' ? null : existing.scope === 'USER' ? existing.ownerUserId : principal.userId;
    const [row] = await tx
      .update(templates)
      .set({
        scope: target,
        ownerUserId,
        name: body.name,
        ...(body.modality !== undefined ? { modalityGroup: body.modality } : {}),
        ...(body.body_part !== undefined ? { bodyPart: body.body_part || null } : {}),
        content,
        ...(body.status ? { status: body.status } : {}),
      })
      .where(eq(templates.id, existing.id))
      .returning();
    if (!row) throw AppError.notFound('Template');
    return { row, created: false };
  });
}

/**
 * DELETE /radiologist/template/{id}: removed for good (reports keep the text they copied from it;
 * nothing refers to a template). The owner or an admin removes a USER template, an admin an
 * ORGANISATION one; DEFAULT templates are read-only (403).
 */
export async function deleteTemplate(db: TDb, scope: TScope, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    // Whoever may not use templates learns nothing: 404 whether the template exists or not.
    if (!canTemplate(scope.principal, 'use')) throw AppError.notFound('Template');
    const existing = await findReadableTemplate(tx, scope, id, { forUpdate: true });
    if (!existing) throw AppError.notFound('Template');
    if (!canTemplate(scope.principal, 'change', existing)) refuse('change', existing.scope);
    await tx.delete(templates).where(eq(templates.id, existing.id));
  });
}
