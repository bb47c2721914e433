// GET /worklist and /worklist/status/count as a caller, for the worklist's route tests: the answer
// must be 200 (else the test fails with its body), typed as the domain says.
import {
  cappedCountLimit,
  WORKLIST_SEARCH_COUNT_CAP,
  type TWorklistListResponse,
  type TWorklistStatusCounts,
} from '@ris/domain';
import { expect } from 'vitest';
import type { TTestServer } from './test-server.ts';

export async function listWorklist(server: TTestServer, token: string, query: string) {
  const response = await server.request('GET', `/api/v1/worklist?${query}`, { token });
  expect(response.status, response.text).toBe(200);
  return response.json as TWorklistListResponse;
}

export async function countWorklist(server: TTestServer, token: string, query: string) {
  const response = await server.request('GET', `/api/v1/worklist/status/count?${query}`, { token });
  expect(response.status, response.text).toBe(200);
  return response.json as TWorklistStatusCounts;
}

/**
 * Lists `query` and asserts its page: the ids of `want` (the oracle's order) from the query's offset
 * for its limit, and the total: exact (`want`'s length) or 'capped' at WORKLIST_SEARCH_COUNT_CAP (one
 * past the page's end for a page at the cap or past it: cappedCountLimit).
 */
export async function expectListedPage(
  server: TTestServer,
  token: string,
  query: string,
  want: readonly string[],
  total: 'exact' | 'capped',
): Promise<void> {
  const params = new URLSearchParams(query);
  const offset = Number(params.get('offset') ?? 0);
  const limit = Number(params.get('limit') ?? 10);
  const page = await listWorklist(server, token, query);
  expect(
    page.items.map((item) => item.id),
    query,
  ).toEqual(want.slice(offset, offset + limit));
  expect({ total: page.total, capped: page.total_capped }, query).toEqual(
    total === 'capped'
      ? { total: cappedCountLimit(WORKLIST_SEARCH_COUNT_CAP, { offset, limit }) - 1, capped: true }
      : { total: want.length, capped: false },
  );
}
