import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_PAGE_LIMIT, ZPagination, ZPaginationQuery, paginate, paginatedSchema } from './pagination.ts';

describe('paginate', () => {
  it('has no previous page at the start', () => {
    expect(paginate(25, 10, 0)).toEqual({
      total: 25,
      limit: 10,
      offset: 0,
      next_offset: 10,
      previous_offset: null,
    });
  });

  it('has both neighbours in the middle', () => {
    expect(paginate(25, 10, 10)).toMatchObject({ next_offset: 20, previous_offset: 0 });
  });

  it('has no next page at the end', () => {
    expect(paginate(25, 10, 20)).toMatchObject({ next_offset: null, previous_offset: 10 });
    expect(paginate(20, 10, 10)).toMatchObject({ next_offset: null, previous_offset: 0 });
  });

  it('does not go below offset 0 for an unaligned offset', () => {
    expect(paginate(25, 10, 5)).toMatchObject({ next_offset: 15, previous_offset: 0 });
  });

  it('handles an empty list and an offset past the end', () => {
    expect(paginate(0, 10, 0)).toMatchObject({ next_offset: null, previous_offset: null });
    expect(paginate(5, 10, 30)).toMatchObject({ next_offset: null, previous_offset: 20 });
  });

  it('produces a valid ZPagination', () => {
    expect(ZPagination.parse(paginate(101, 25, 50))).toEqual(paginate(101, 25, 50));
  });

  it('rejects impossible input', () => {
    expect(() => paginate(-1, 10, 0)).toThrow(RangeError);
    expect(() => paginate(10, 0, 0)).toThrow(RangeError);
    expect(() => paginate(10, 10, -10)).toThrow(RangeError);
    expect(() => paginate(10, 2.5, 0)).toThrow(RangeError);
  });
});

describe('pagination schemas', () => {
  it('requires nullable offsets to be present', () => {
    expect(ZPagination.safeParse({ total: 1, limit: 10, offset: 0, next_offset: null }).success).toBe(false);
    expect(
      ZPagination.safeParse({ total: 1, limit: 10, offset: 0, next_offset: null, previous_offset: -1 })
        .success,
    ).toBe(false);
  });

  it('reads limit and offset from query strings with defaults', () => {
    expect(ZPaginationQuery.parse({})).toEqual({ limit: 10, offset: 0 });
    expect(ZPaginationQuery.parse({ limit: '25', offset: '50' })).toEqual({ limit: 25, offset: 50 });
    expect(ZPaginationQuery.safeParse({ limit: '0' }).success).toBe(false);
    expect(ZPaginationQuery.safeParse({ limit: String(MAX_PAGE_LIMIT + 1) }).success).toBe(false);
    expect(ZPaginationQuery.safeParse({ offset: '-1' }).success).toBe(false);
    expect(ZPaginationQuery.safeParse({ limit: 'ten' }).success).toBe(false);
  });

  it('builds a list response schema', () => {
    const ZList = paginatedSchema(z.object({ id: z.string() }));
    const page = { ...paginate(1, 10, 0), items: [{ id: 'a' }] };
    expect(ZList.parse(page)).toEqual(page);
    expect(ZList.safeParse({ ...page, items: [{ id: 1 }] }).success).toBe(false);
  });
});
