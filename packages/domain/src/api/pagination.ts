import { z } from 'zod';
import { PAGE_SIZES } from '../ui-constants.ts';

const ZCount = z.number().int().nonnegative();

/** Pagination fields of every list response; the offsets are null at the ends of the list. */
export const ZPagination = z.object({
  total: ZCount,
  limit: z.number().int().positive(),
  offset: ZCount,
  next_offset: ZCount.nullable(),
  previous_offset: ZCount.nullable(),
});
export type TPagination = z.infer<typeof ZPagination>;

/** Largest page a client may ask for. */
export const MAX_PAGE_LIMIT = 100;

/** limit and offset query parameters (strings on the wire), defaulting to the first page of 10. */
export const ZPaginationQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(PAGE_SIZES.fetchDefaultLimit),
  offset: z.coerce.number().int().min(0).default(0),
});
export type TPaginationQuery = z.infer<typeof ZPaginationQuery>;

/** A list response: `items` beside the pagination fields. */
export function paginatedSchema<TItem extends z.ZodType>(item: TItem) {
  return ZPagination.extend({ items: z.array(item) });
}

/**
 * Pagination fields for a page: next_offset is offset + limit while items remain after this page,
 * previous_offset is offset − limit (not below 0) unless this page starts at 0. An offset past the
 * end still points back to the page before it. Throws a RangeError for a negative or fractional
 * total/offset or a limit below 1.
 */
export function paginate(total: number, limit: number, offset: number): TPagination {
  if (!Number.isInteger(total) || total < 0) throw new RangeError('total must be a non-negative integer');
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  if (!Number.isInteger(offset) || offset < 0) throw new RangeError('offset must be a non-negative integer');
  return {
    total,
    limit,
    offset,
    next_offset: offset + limit < total ? offset + limit : null,
    previous_offset: offset > 0 ? Math.max(0, offset - limit) : null,
  };
}

/**
 * Where a count capped at `cap` stops: one past the cap, or past the page asked for (so a page beyond
 * the cap still knows whether another follows). A count that reaches it reports one less, as a lower
 * bound (total_capped).
 */
export function cappedCountLimit(cap: number, page: { offset: number; limit: number }): number {
  return Math.max(cap, page.offset + page.limit + 1) + 1;
}
