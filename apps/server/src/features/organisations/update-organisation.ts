// PUT /user/organisation/{id}: an administrator renames the organisation and sets its report style.
import { ZReportStyle, type TReportStyle, type TUpdateOrganisationBody } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TTx } from '../../db/client.ts';
import { organisations } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';

const invalidStyle = (message: string, path = 'report_style') =>
  new AppError('VALIDATION_FAILED', `${path}: ${message}`, { field: 'report_style', path });

/**
 * report_style as sent (serialized JSON text) → the complete style to store (defaults filled in);
 * null clears it. 400 naming the first offending path, e.g. "report_style.margins_mm.top: …".
 */
export function parseReportStyleText(text: string | null): TReportStyle | null {
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidStyle('not valid JSON');
  }
  const parsed = ZReportStyle.safeParse(json);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const path = ['report_style', ...(issue?.path ?? []).map(String)].join('.');
  throw invalidStyle(issue?.message ?? 'invalid', path);
}

export async function updateOrganisation(tx: TTx, scope: TScope, body: TUpdateOrganisationBody) {
  if (scope.principal.role !== 'ADMIN') {
    throw new AppError('FORBIDDEN', 'Only an administrator may change the organisation');
  }
  const reportStyle = body.report_style === undefined ? undefined : parseReportStyleText(body.report_style);
  const [row] = await tx
    .update(organisations)
    .set({
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(reportStyle !== undefined ? { reportStyle } : {}),
      ...(body.time_zone !== undefined ? { timeZone: body.time_zone } : {}),
    })
    .where(eq(organisations.id, scope.organisationId))
    .returning();
  if (!row) throw AppError.notFound('Organisation');
  return row;
}
