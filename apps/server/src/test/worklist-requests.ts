// GET /worklist and /worklist/status/count as a caller, for the worklist's route tests: the answer
// must be 200 (else the test fails with its body), typed as the domain says.
import type { TWorklistListResponse, TWorklistStatusCounts } from '@ris/domain';
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
