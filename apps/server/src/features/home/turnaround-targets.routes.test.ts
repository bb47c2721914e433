import { DEFAULT_TURNAROUND_TARGETS, type THomeSummary, type TTurnaroundTargetsResponse } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildFacility, buildStudy, buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

const NOW = new Date('2026-11-26T12:00:00.000Z');
const PATH = '/api/v1/organisation/turnaround-targets';
let server: TTestServer;
let tokens: Record<'admin' | 'facilityAdmin' | 'radiologist' | 'outsider', string>;
let organisationId: string;
let studyId: string;

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  const facility = await buildFacility(server.db);
  organisationId = facility.organisationId;
  const users = {
    admin: await buildUser(server.db, { role: 'ADMIN', organisationId }),
    facilityAdmin: await buildUser(server.db, { role: 'FACILITY_ADMIN', facilities: [facility] }),
    radiologist: await buildUser(server.db, { facilities: [facility] }),
    outsider: await buildUser(server.db, {
      role: 'ADMIN',
      organisationId: (await buildFacility(server.db)).organisationId,
    }),
  };
  tokens = {
    admin: await tokenFor(server, users.admin),
    facilityAdmin: await tokenFor(server, users.facilityAdmin),
    radiologist: await tokenFor(server, users.radiologist),
    outsider: await tokenFor(server, users.outsider),
  };
  // An EMERGENCY study two hours old: overdue at 1 h, not at 3 h.
  studyId = (
    await buildStudy(server.db, {
      facility,
      status: 'ASSIGNED',
      priorityTag: 'EMERGENCY',
      createdAt: new Date('2026-11-26T10:00:00.000Z'),
    })
  ).id;
});
afterAll(async () => {
  await server.close();
});

const call = (who: keyof typeof tokens, method: string, body?: unknown) =>
  server.request(method, PATH, { token: tokens[who], ...(body === undefined ? {} : { body }) });

async function stored() {
  const [row] = await server.db
    .select({ targets: t.organisations.turnaroundTargets })
    .from(t.organisations)
    .where(eq(t.organisations.id, organisationId));
  return row?.targets;
}

describe('turnaround targets', () => {
  it('answers the defaults until an admin sets them, to every role of the organisation', async () => {
    for (const who of ['admin', 'facilityAdmin', 'radiologist'] as const) {
      const response = await call(who, 'GET');
      expect(response.status, response.text).toBe(200);
      expect(response.json).toEqual({ targets: DEFAULT_TURNAROUND_TARGETS, is_default: true });
    }
  });

  it('lets only an admin change them; tags left out keep their defaults', async () => {
    for (const who of ['facilityAdmin', 'radiologist'] as const) {
      const refused = await call(who, 'PUT', { default_minutes: 600 });
      expect(refused.status).toBe(403);
    }
    expect(await stored()).toBeNull();
    const response = await call('admin', 'PUT', { default_minutes: 600, per_priority: { EMERGENCY: 180 } });
    expect(response.status, response.text).toBe(200);
    const expected = {
      default_minutes: 600,
      per_priority: { ...DEFAULT_TURNAROUND_TARGETS.per_priority, EMERGENCY: 180 },
    };
    expect(response.json).toEqual({ targets: expected, is_default: false });
    expect(await stored()).toEqual(expected);
    const read = (await call('facilityAdmin', 'GET')).json as TTurnaroundTargetsResponse;
    expect(read.targets.per_priority.EMERGENCY).toBe(180);
    // Another organisation keeps its own (the defaults).
    expect(((await call('outsider', 'GET')).json as TTurnaroundTargetsResponse).is_default).toBe(true);
  });

  it('applies them to the home summary: the two-hour EMERGENCY study is within 3 h', async () => {
    const home = await server.request('GET', '/api/v1/home/summary', { token: tokens.admin });
    const summary = home.json as THomeSummary;
    expect(summary.turnaround_targets.per_priority.EMERGENCY).toBe(180);
    expect(summary.breaches?.items.map((item) => item.id)).not.toContain(studyId);
    await call('admin', 'PUT', { default_minutes: 600, per_priority: { EMERGENCY: 60 } });
    const again = (await server.request('GET', '/api/v1/home/summary', { token: tokens.admin }))
      .json as THomeSummary;
    expect(again.breaches?.items.map((item) => item.id)).toContain(studyId);
  });

  it('refuses invalid targets with a 400 naming the field, and keeps what was stored', async () => {
    const before = await stored();
    const cases: [unknown, string][] = [
      [{ default_minutes: 0 }, 'default_minutes'],
      [{ default_minutes: 43_201 }, 'default_minutes'],
      [{ default_minutes: 1.5 }, 'default_minutes'],
      [{}, 'default_minutes'],
      [{ default_minutes: 60, per_priority: { EMERGENCY: 0 } }, 'EMERGENCY'],
      [{ default_minutes: 60, per_priority: { STAT: 10 } }, 'per_priority'],
      [{ default_minutes: 60, per_priority: { URGENT: '240' } }, 'URGENT'],
    ];
    for (const [body, field] of cases) {
      const response = await call('admin', 'PUT', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = (response.json as { error: { code: string; message: string } }).error;
      expect(error.message, JSON.stringify(body)).toContain(field);
    }
    expect(await stored()).toEqual(before);
  });

  it('answers 401 without a token', async () => {
    expect((await server.request('GET', PATH)).status).toBe(401);
    expect((await server.request('PUT', PATH, { body: { default_minutes: 60 } })).status).toBe(401);
  });
});
