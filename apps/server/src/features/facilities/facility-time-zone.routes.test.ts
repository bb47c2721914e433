// Facility time zones: a facility's own IANA zone, or (null) its organisation's; validated on write;
// documents print their dates in it and say which.
import type { TFacilityDetails, TOrganisationDetails } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { buildFacility } from '../../test/factories.ts';
import { pdfText } from '../../test/pdf-tools.ts';
import { buildReportWorld, type TWorld } from '../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
});

async function facilityZone(id: string) {
  const [row] = await server.db
    .select({ timeZone: t.facilities.timeZone })
    .from(t.facilities)
    .where(eq(t.facilities.id, id));
  return row?.timeZone;
}

describe('facility time_zone', () => {
  it('is null (the organisation’s) unless given, and changes to a valid zone or back to null', async () => {
    const created = await w.call('admin', 'POST', '/user/facility', { name: 'Zone Centre', code: 'ZONE-1' });
    expect(created.status, created.text).toBe(201);
    const facility = created.json as TFacilityDetails;
    expect(facility.time_zone).toBeNull();

    const set = await w.call('admin', 'PUT', `/user/facility/${facility.id}`, { time_zone: 'Asia/Kolkata' });
    expect(set.status, set.text).toBe(200);
    expect((set.json as TFacilityDetails).time_zone).toBe('Asia/Kolkata');
    expect(await facilityZone(facility.id)).toBe('Asia/Kolkata');

    const cleared = await w.call('admin', 'PUT', `/user/facility/${facility.id}`, { time_zone: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect((cleared.json as TFacilityDetails).time_zone).toBeNull();
  });

  it('refuses an unknown zone with 400 naming time_zone, and changes nothing', async () => {
    for (const zone of ['Mars/Base', 'IST+5', '', 'Asia/Kolkata; DROP TABLE']) {
      const update = await w.call('admin', 'PUT', `/user/facility/${w.facility.id}`, { time_zone: zone });
      expect(update.status, zone).toBe(400);
      expect((update.json as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');
      expect(update.text).toContain('time_zone');
      const create = await w.call('admin', 'POST', '/user/facility', {
        name: 'Bad',
        code: 'BAD-1',
        time_zone: zone,
      });
      expect(create.status, zone).toBe(400);
      expect(create.text).toContain('time_zone');
    }
    expect(await facilityZone(w.facility.id)).toBe(w.facility.timeZone);
  });

  it("leaves another organisation's facility alone (404)", async () => {
    const foreign = await buildFacility(server.db, { timeZone: 'Europe/London' });
    const response = await w.call('admin', 'PUT', `/user/facility/${foreign.id}`, {
      time_zone: 'Asia/Kolkata',
    });
    expect(response.status).toBe(404);
    expect(response.json).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    expect(await facilityZone(foreign.id)).toBe('Europe/London');
  });

  it("the organisation's zone: shown in its details, changed by an administrator, validated", async () => {
    const set = await w.call('admin', 'PUT', `/user/organisation/${w.organisationId}`, {
      time_zone: 'Europe/London',
    });
    expect(set.status, set.text).toBe(200);
    expect((set.json as TOrganisationDetails).time_zone).toBe('Europe/London');
    const bad = await w.call('admin', 'PUT', `/user/organisation/${w.organisationId}`, {
      time_zone: 'Nowhere/At_All',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('time_zone');
  });
});

describe('dates in documents', () => {
  /** The stored report as a PDF's text, signed by the assigned radiologist. */
  async function documentText(studyId: string) {
    const response = await fetch(`${server.url}/api/v1/worklist/report/primary-rad/pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.token('radiologist')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ worklist_id: studyId }),
    });
    expect(response.status).toBe(200);
    return pdfText(Buffer.from(await response.arrayBuffer()));
  }

  it("print in the facility's zone, else the organisation's, and say which", async () => {
    const { studyId } = await w.studyWithReport();
    // 15:28 UTC: 20:58 in Kolkata, 15:28 in London (GMT in November).
    await server.db
      .update(t.studies)
      .set({ studyDatetime: new Date('2026-11-25T15:28:00Z') })
      .where(eq(t.studies.id, studyId));

    await server.db
      .update(t.facilities)
      .set({ timeZone: 'Asia/Kolkata' })
      .where(eq(t.facilities.id, w.facility.id));
    expect(await documentText(studyId)).toContain('25 Nov 2026, 20:58 GMT+5:30');

    await server.db.update(t.facilities).set({ timeZone: null }).where(eq(t.facilities.id, w.facility.id));
    await server.db
      .update(t.organisations)
      .set({ timeZone: 'America/New_York' })
      .where(eq(t.organisations.id, w.organisationId));
    expect(await documentText(studyId)).toContain('25 Nov 2026, 10:28 GMT-5');
  });
});
