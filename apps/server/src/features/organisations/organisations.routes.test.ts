import { DEFAULT_REPORT_STYLE, type TOrganisationDetails } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
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

async function organisationRow() {
  const [row] = await server.db
    .select()
    .from(t.organisations)
    .where(eq(t.organisations.id, w.organisationId));
  if (!row) throw new Error('no organisation');
  return row;
}

describe('PUT /user/organisation/{id}', () => {
  it('stores a valid report style with its defaults and serves it back as text', async () => {
    const style = { font_size_pt: 11, margins_mm: { top: 20 }, signature_placement: 'left' };
    const response = await w.call('admin', 'PUT', `/user/organisation/${w.organisationId}`, {
      name: 'Renamed Teleradiology',
      report_style: JSON.stringify(style),
    });
    expect(response.status, response.text).toBe(200);
    const details = response.json as TOrganisationDetails;
    expect(details.name).toBe('Renamed Teleradiology');
    const stored = {
      ...DEFAULT_REPORT_STYLE,
      font_size_pt: 11,
      signature_placement: 'left',
      margins_mm: { ...DEFAULT_REPORT_STYLE.margins_mm, top: 20 },
    };
    expect(JSON.parse(details.report_style ?? 'null')).toEqual(stored);
    expect((await organisationRow()).reportStyle).toEqual(stored);
    const read = await w.call('radiologist', 'GET', `/user/organisation/details/${w.organisationId}`);
    expect(JSON.parse((read.json as TOrganisationDetails).report_style ?? 'null')).toEqual(stored);
    // Only the fields sent change; null clears the style.
    const keep = await w.call('admin', 'PUT', `/user/organisation/${w.organisationId}`, { name: 'Again' });
    expect(JSON.parse((keep.json as TOrganisationDetails).report_style ?? 'null')).toEqual(stored);
    const cleared = await w.call('admin', 'PUT', `/user/organisation/${w.organisationId}`, {
      report_style: null,
    });
    expect(cleared.status).toBe(200);
    expect((cleared.json as TOrganisationDetails).report_style).toBeNull();
    expect((await organisationRow()).reportStyle).toBeNull();
  });

  it('refuses invalid styles naming the path, and changes nothing', async () => {
    const before = await organisationRow();
    const cases: [string, string][] = [
      ['{not json', 'report_style: not valid JSON'],
      [JSON.stringify({ margins_mm: { top: 1 } }), 'report_style.margins_mm.top: '],
      [JSON.stringify({ signature_placement: 'middle' }), 'report_style.signature_placement: '],
      [JSON.stringify({ font_sise_pt: 10 }), 'report_style: '],
      [JSON.stringify([1, 2]), 'report_style: '],
    ];
    for (const [text, message] of cases) {
      const response = await w.call('admin', 'PUT', `/user/organisation/${w.organisationId}`, {
        name: 'Should not stick',
        report_style: text,
      });
      expect(response.status, text).toBe(400);
      expect((response.json as { error: { message: string } }).error.message, text).toContain(message);
    }
    const wrongType = await w.call('admin', 'PUT', `/user/organisation/${w.organisationId}`, {
      report_style: {},
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.text).toContain('report_style');
    expect(await organisationRow()).toEqual(before);
  });

  it('is for administrators of the organisation: 403 for other roles, 404 for other organisations', async () => {
    const before = await organisationRow();
    for (const user of ['facilityAdmin', 'radiologist', 'transcriptionist', 'referrer'] as const) {
      const response = await w.call(user, 'PUT', `/user/organisation/${w.organisationId}`, {
        name: 'Mine now',
      });
      expect(response.status, user).toBe(403);
    }
    const outsider = await w.call('outsider', 'PUT', `/user/organisation/${w.organisationId}`, {
      name: 'Taken',
    });
    expect(outsider.status).toBe(404);
    expect(await organisationRow()).toEqual(before);
  });
});
