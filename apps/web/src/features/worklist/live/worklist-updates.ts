import { z } from 'zod';
import {
  NO_WORKLIST_ITEM_ABILITIES,
  ZUuid,
  ZWorklistItemFacts,
  type TWorklistItem,
  type TWorklistItemFacts,
  type TWorklistListResponse,
} from '@ris/domain';

/**
 * What a `worklist-status-update` message carries: a changed item's facts (one message for every
 * listener, so without anyone's abilities), or the id of a deleted one.
 */
export type TWorklistUpdate =
  { action: 'upsert'; item: TWorklistItemFacts } | { action: 'delete'; id: string; facility_fk: string };

const ZWorklistUpdate = z.discriminatedUnion('action', [
  z.object({ action: z.literal('upsert'), item: ZWorklistItemFacts }),
  z.object({ action: z.literal('delete'), id: ZUuid, facility_fk: ZUuid }),
]);

/** The update in a realtime message's data, or null when it has another shape (then only logged). */
export function parseWorklistUpdate(data: unknown): TWorklistUpdate | null {
  const parsed = ZWorklistUpdate.safeParse(data);
  return parsed.success ? parsed.data : null;
}

function facilityOf(update: TWorklistUpdate): string {
  return update.action === 'upsert' ? update.item.facility_fk : update.facility_fk;
}

/**
 * One page of the worklist after a realtime update (spec §4): a deleted item is removed, a known item
 * is merged in place, an unknown one is added at the top (the page keeps its size, the total grows).
 * Updates about facilities outside `facilityIds` are ignored; the same page object comes back when
 * nothing changed, so React Query does not re-render.
 */
export function applyWorklistUpdate(
  page: TWorklistListResponse,
  update: TWorklistUpdate,
  facilityIds: ReadonlySet<string>,
): TWorklistListResponse {
  if (!facilityIds.has(facilityOf(update))) return page;
  if (update.action === 'delete') {
    if (!page.items.some((item) => item.id === update.id)) return page;
    return {
      ...page,
      items: page.items.filter((item) => item.id !== update.id),
      total: Math.max(0, page.total - 1),
    };
  }
  const { item } = update;
  const index = page.items.findIndex((known) => known.id === item.id);
  if (index !== -1) {
    return { ...page, items: page.items.map((known, i) => (i === index ? { ...known, ...item } : known)) };
  }
  // A new item's abilities come with the next read of the page (the message carries no one's).
  const added: TWorklistItem = { ...item, abilities: NO_WORKLIST_ITEM_ABILITIES };
  return { ...page, items: [added, ...page.items].slice(0, page.limit), total: page.total + 1 };
}

/** Whether an update changed a fact the item's abilities depend on (so they are to be read again). */
export function changesAbilities(current: TWorklistItem, update: TWorklistUpdate): boolean {
  if (update.action === 'delete' || update.item.id !== current.id) return false;
  const { item } = update;
  return (
    item.status !== current.status ||
    item.last_assigned_user_fk !== current.last_assigned_user_fk ||
    item.collaboration_enabled !== current.collaboration_enabled
  );
}

/** A single item (the reporting screen's) after an update: merged, or null once deleted. */
export function applyItemUpdate(current: TWorklistItem, update: TWorklistUpdate): TWorklistItem | null {
  if (update.action === 'delete') return update.id === current.id ? null : current;
  return update.item.id === current.id ? { ...current, ...update.item } : current;
}
