// An organisation's turnaround targets (issue 16): read with their defaults filled in, changed by an
// administrator, and written into SQL as the one rule of @ris/domain (turnaroundTargetMinutes), so
// the home summary and the breach job select exactly the items isOverdue calls overdue.
import {
  PRIORITY_TAGS,
  resolveTurnaroundTargets,
  turnaroundTargetMinutes,
  type TTurnaroundTargets,
  type TTurnaroundTargetsResponse,
  type TUpdateTurnaroundTargetsBody,
} from '@ris/domain';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { TPrincipal } from '../../auth/principal.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { organisations } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';

/** The organisation's targets in effect (the defaults while it has set none). */
export async function loadTurnaroundTargets(
  db: TDbOrTx,
  organisationId: string,
): Promise<TTurnaroundTargetsResponse> {
  const [row] = await db
    .select({ stored: organisations.turnaroundTargets })
    .from(organisations)
    .where(eq(organisations.id, organisationId));
  if (!row) throw AppError.notFound('Organisation');
  return { targets: resolveTurnaroundTargets(row.stored), is_default: row.stored === null };
}

/** Who may change the targets: an ADMIN of the organisation (facility admins and others read them). */
export function authorizeTargetsChange(principal: TPrincipal): void {
  if (principal.role !== 'ADMIN') {
    throw new AppError('FORBIDDEN', 'Only an administrator may change the turnaround targets');
  }
}

/** Stores the targets complete (tags left out take their defaults); answers them as now in effect. */
export async function saveTurnaroundTargets(
  db: TDbOrTx,
  organisationId: string,
  body: TUpdateTurnaroundTargetsBody,
): Promise<TTurnaroundTargetsResponse> {
  const targets = resolveTurnaroundTargets(body);
  const [row] = await db
    .update(organisations)
    .set({ turnaroundTargets: targets })
    .where(eq(organisations.id, organisationId))
    .returning({ id: organisations.id });
  if (!row) throw AppError.notFound('Organisation');
  return { targets, is_default: false };
}

/** Minutes allowed for the row's study: `case "studies"."priority_tag" when … else default end`. */
export function targetMinutesSql(targets: TTurnaroundTargets): SQL {
  const branches = PRIORITY_TAGS.map(
    (tag) => sql`when ${tag}::priority_tag then ${turnaroundTargetMinutes(tag, targets)}::int`,
  );
  return sql`(case "studies"."priority_tag" ${sql.join(branches, sql` `)} else ${turnaroundTargetMinutes(null, targets)}::int end)`;
}

/** The study's due time (turnaroundDueAt): created_at + its target. */
export function dueAtSql(targets: TTurnaroundTargets): SQL {
  return sql`("studies"."created_at" + make_interval(mins => ${targetMinutesSql(targets)}))`;
}

/**
 * The study is overdue at `now` (isOverdue): open, and its due time has passed. Also says
 * created_at < now − the shortest target, so an index on created_at bounds the rows read.
 */
export function overdueSql(targets: TTurnaroundTargets, now: Date): SQL {
  const shortest = Math.min(targets.default_minutes, ...Object.values(targets.per_priority));
  const nowText = now.toISOString();
  return sql`"studies"."status" not in ('FINAL', 'DELETED')
    and "studies"."created_at" < ${nowText}::timestamptz - make_interval(mins => ${shortest}::int)
    and ${dueAtSql(targets)} < ${nowText}::timestamptz`;
}
