import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { TTag, TWorklistTag } from '@ris/domain';
import type { TScope } from '../../access/scope.ts';
import { visibleStudies } from '../../access/studies-scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { studies, tags, worklistTags } from '../../db/schema/index.ts';
import { containsFolded, folded } from '../../db/text-search.ts';

type TTagRow = typeof tags.$inferSelect;

export function presentTag(row: TTagRow): TTag {
  return {
    id: row.id,
    name: row.name,
    type: row.scope,
    colour: row.colour,
    organization_id: row.organisationId,
    by_user_fk: row.createdBy,
    created_at: row.createdAt.toISOString(),
  };
}

/** Tags a user may use: DEFAULT ones, their organisation's, and their own USER tags. */
export function usableTags(organisationId: string, userId: string): SQL {
  return (
    or(
      and(eq(tags.scope, 'DEFAULT'), isNull(tags.organisationId)),
      and(eq(tags.scope, 'ORGANISATION'), eq(tags.organisationId, organisationId)),
      and(eq(tags.scope, 'USER'), eq(tags.createdBy, userId), eq(tags.organisationId, organisationId)),
    ) ?? sql`false`
  );
}

export async function listTags(
  db: TDbOrTx,
  input: { organisationId: string; userId: string; search?: string | undefined; types: string[] },
): Promise<TTagRow[]> {
  const conditions: SQL[] = [usableTags(input.organisationId, input.userId)];
  if (input.types.length > 0) conditions.push(inArray(tags.scope, input.types as TTagRow['scope'][]));
  if (input.search) {
    conditions.push(containsFolded(folded(tags.name), input.search));
  }
  return db
    .select()
    .from(tags)
    .where(and(...conditions))
    .orderBy(asc(sql`lower(${tags.name})`))
    .limit(500);
}

/** Worklist tags a user put on studies the caller may see, newest first. */
export async function listWorklistTags(db: TDbOrTx, scope: TScope, userId: string): Promise<TWorklistTag[]> {
  const rows = await db
    .select({ worklistTag: worklistTags, tag: tags })
    .from(worklistTags)
    .innerJoin(tags, eq(tags.id, worklistTags.tagId))
    .innerJoin(studies, eq(studies.id, worklistTags.studyId))
    .where(and(eq(worklistTags.userId, userId), visibleStudies(scope)))
    .orderBy(desc(worklistTags.createdAt))
    .limit(1000);
  return rows.map(({ worklistTag, tag }) => ({
    id: worklistTag.id,
    worklist_id: worklistTag.studyId,
    tag: presentTag(tag),
    user_fk: worklistTag.userId,
    created_at: worklistTag.createdAt.toISOString(),
  }));
}
