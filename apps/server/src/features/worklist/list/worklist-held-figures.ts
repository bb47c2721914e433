// Figures about an organisation's studies that the worklist's choices of plan read often and that
// change slowly (how many facilities it has, its first arrival, the share of its studies a caller's
// filters keep): read from PostgreSQL at most once per STATS_MAX_AGE_MS per database, else held in
// memory. They steer how a page is read, never what it holds: a stale figure costs time, not rows.
import { sql } from 'drizzle-orm';
import type { TDbOrTx } from '../../../db/client.ts';
import { queryRows } from '../../../db/rows.ts';
import { STATS_MAX_AGE_MS } from './worklist-search-stats.ts';

/**
 * The figures one database holds at most: past it they are all read again (a key names a caller's
 * filters, so their number follows how many different filters are used within STATS_MAX_AGE_MS).
 */
const HELD_FIGURES_AT_MOST = 10_000;

type THeld = { value: number | null; readAt: number };
const held = new WeakMap<object, Map<string, THeld>>();

/** A figure read at most once per STATS_MAX_AGE_MS per database (`key` names it), else from memory. */
export async function heldFigure(
  db: TDbOrTx,
  key: string,
  read: () => Promise<number | null>,
): Promise<number | null> {
  const figures = held.get(db) ?? new Map<string, THeld>();
  held.set(db, figures);
  const figure = figures.get(key);
  if (figure && Date.now() - figure.readAt < STATS_MAX_AGE_MS) return figure.value;
  const value = await read();
  if (figures.size >= HELD_FIGURES_AT_MOST) figures.clear();
  figures.set(key, { value, readAt: Date.now() });
  return value;
}

/** How many facilities the organisation has, from memory for STATS_MAX_AGE_MS. */
export async function facilityCountOf(db: TDbOrTx, organisationId: string): Promise<number> {
  const count = await heldFigure(db, `facilities:${organisationId}`, async () => {
    const [row] = await queryRows<{ count: number }>(
      db,
      sql`select count(*)::int as count from facilities where organisation_id = ${organisationId}::uuid`,
    );
    return row?.count ?? 0;
  });
  return count ?? 0;
}

/** The organisation's first arrival in epoch milliseconds (null without studies), from memory likewise. */
export function firstArrivalHeld(db: TDbOrTx, organisationId: string): Promise<number | null> {
  return heldFigure(db, `first:${organisationId}`, async () => {
    const [row] = await queryRows<{ first: number | null }>(
      db,
      sql`select floor(extract(epoch from min(created_at)) * 1000)::float8 as first from studies
        where organisation_id = ${organisationId}::uuid`,
    );
    return row?.first ?? null;
  });
}

/** The share of the organisation's facilities that `facilityCount` of them are (at most 1). */
export async function facilityShareOf(
  db: TDbOrTx,
  organisationId: string,
  facilityCount: number,
): Promise<number> {
  const total = await facilityCountOf(db, organisationId);
  return total > 0 ? Math.min(1, facilityCount / total) : 1;
}
