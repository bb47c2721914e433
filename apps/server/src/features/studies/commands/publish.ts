// After a command commits: present the changed items once and announce them (realtime listens).
import type { TWorklistItem, TWorklistItemFacts } from '@ris/domain';
import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { TPrincipal } from '../../../auth/principal.ts';
import type { TDbOrTx } from '../../../db/client.ts';
import { studies } from '../../../db/schema/index.ts';
import { withAbilities } from '../study.presenter.ts';
import { presentWorklistRows, selectWorklistRows } from '../study.queries.ts';

/**
 * Items by id, in the order given. Not scoped: only for ids a command has just loaded through the
 * caller's scope.
 */
export async function loadItems(db: TDbOrTx, ids: readonly string[]): Promise<TWorklistItemFacts[]> {
  if (ids.length === 0) return [];
  const rows = await selectWorklistRows(db).where(inArray(studies.id, [...ids]));
  const items = await presentWorklistRows(db, rows);
  const byId = new Map(items.map((item) => [item.id, item]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Emits worklist.item.changed (or .deleted for DELETED items) for each committed change. */
export function publishItems(
  app: FastifyInstance,
  organisationId: string,
  items: readonly TWorklistItemFacts[],
): void {
  for (const item of items) {
    if (item.status === 'DELETED') {
      app.events.emit('worklist.item.deleted', { organisationId, id: item.id, facilityId: item.facility_fk });
    } else {
      app.events.emit('worklist.item.changed', { organisationId, item });
    }
  }
}

/** loadItems + publishItems: announces the committed changes; the facts, for every listener alike. */
export async function publishStudies(
  app: FastifyInstance,
  organisationId: string,
  ids: readonly string[],
): Promise<TWorklistItemFacts[]> {
  const items = await loadItems(app.deps.database.db, ids);
  publishItems(app, organisationId, items);
  return items;
}

/** publishStudies, answering the caller with the same items and what they may do with each. */
export async function presentAndPublish(
  app: FastifyInstance,
  caller: { organisationId: string; principal: TPrincipal },
  ids: readonly string[],
): Promise<TWorklistItem[]> {
  const items = await publishStudies(app, caller.organisationId, ids);
  return items.map((item) => withAbilities(item, caller.principal));
}
