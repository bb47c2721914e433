// The admin's breaches (issue 16): overdue open studies, most overdue first, without reading every
// overdue study. A study is due at arrival + its priority tag's target, so among the studies of one
// tag (or untagged) due order is arrival order: one ordered scan a tag of
// studies_open_organisation_priority_created_idx reads its earliest HOME_LIST_LIMIT arrivals past
// the target, the scans are merged by due time, and only that page is joined to facilities and users.
import {
  HOME_LIST_LIMIT,
  PRIORITY_TAGS,
  turnaroundTargetMinutes,
  type THomeStudyItem,
  type TPriorityTag,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import { visibleStudies } from '../../access/studies-scope.ts';
import { queryRows } from '../../db/rows.ts';
import { presentStudy, STUDY_COLUMNS, STUDY_JOINS, type TStudyRow } from './home-items.ts';
import type { THomeContext } from './home-personal.ts';

const OPEN = sql`"studies"."status" not in ('FINAL', 'DELETED')`;

/** Each priority tag and untagged (null) with the condition selecting it and its target. */
function tagTargets(context: THomeContext): { tagIs: SQL; minutes: number }[] {
  return [...PRIORITY_TAGS, null].map((tag: TPriorityTag | null) => ({
    tagIs:
      tag === null
        ? sql`"studies"."priority_tag" is null`
        : sql`"studies"."priority_tag" = ${tag}::priority_tag`,
    minutes: turnaroundTargetMinutes(tag, context.targets),
  }));
}

/** `now` − minutes: studies that arrived before it are overdue (due = arrival + minutes < now). */
function dueSince(context: THomeContext, minutes: number): SQL {
  return sql`${context.now.toISOString()}::timestamptz - make_interval(mins => ${minutes}::int)`;
}

/** The page of breaches: the HOME_LIST_LIMIT most overdue (earliest due, then id) in the caller's scope. */
export async function breachItems(context: THomeContext): Promise<THomeStudyItem[]> {
  const perTag = tagTargets(context).map(
    ({ tagIs, minutes }) =>
      sql`(select "studies"."id", "studies"."created_at" + make_interval(mins => ${minutes}::int) as due_at
        from studies where ${visibleStudies(context.scope)} and ${OPEN} and ${tagIs}
          and "studies"."created_at" < ${dueSince(context, minutes)}
        order by "studies"."created_at", "studies"."id" limit ${HOME_LIST_LIMIT})`,
  );
  const rows = await queryRows<TStudyRow>(
    context.db,
    sql`with page as (select id, due_at from (${sql.join(perTag, sql` union all `)}) overdue
        order by due_at, id limit ${HOME_LIST_LIMIT})
      select ${STUDY_COLUMNS} from page join studies on "studies"."id" = page.id ${STUDY_JOINS}
      order by page.due_at, "studies"."id"`,
  );
  return rows.map((row) => presentStudy(row, context.targets, context.now));
}

/**
 * Open studies in `open` (the waiting counts' condition) that are not due yet: those that arrived
 * within their tag's target. The breaches' total is the waiting counts' sum less these, which reads
 * the last day's arrivals rather than every overdue study.
 */
export async function notYetDueCount(context: THomeContext, open: SQL): Promise<number> {
  const perTag = tagTargets(context).map(
    ({ tagIs, minutes }) =>
      sql`(select count(*) as count from studies
        where ${open} and ${tagIs} and "studies"."created_at" >= ${dueSince(context, minutes)})`,
  );
  const [row] = await queryRows<{ count: number | string }>(
    context.db,
    sql`select coalesce(sum(count), 0) as count from (${sql.join(perTag, sql` union all `)}) per_tag`,
  );
  return Number(row?.count ?? 0);
}
