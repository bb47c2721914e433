// GET /report/search answers the very next request after a change: a study moved to another
// facility (its report's copy follows) on the walk path (a common word) and the planner's (a rare
// word), a user's facilities changed or the user disabled, and the priors panel of another facility.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildReport, buildStudy, buildUser } from '../../test/factories.ts';
import {
  buildFinderWorld,
  idsFound,
  NOW,
  searchAs,
  type TFinderWorld,
} from '../../test/report-finder-world.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { postUserForm } from '../../test/user-admin-world.ts';

let server: TTestServer;
let world: TFinderWorld;

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  world = await buildFinderWorld(server);
});

afterAll(async () => {
  await server?.close();
});

const sorted = (ids: string[]) => [...ids].sort();

describe('GET /report/search after a change', () => {
  it('follows a study moved to another facility at once, by a common word and by a rare one', async () => {
    const study = await buildStudy(server.db, { facility: world.f2, status: 'FINAL', createdAt: NOW });
    const report = await buildReport(server.db, {
      study,
      status: 'COMPLETED',
      text: 'Zygomatic arch fracture with a small pleural effusion.',
    });
    const { rad1, rad2 } = world.tokens;
    // "effusion" matches most reports (the walk), "zygomatic" one (the planner's statement).
    for (const q of ['effusion', 'zygomatic']) {
      expect(await idsFound(server, rad2, { q }), q).toContain(report.id);
      expect(await idsFound(server, rad1, { q }), q).not.toContain(report.id);
    }
    await server.db.execute(
      sql`update studies set facility_id = ${world.f1.id}::uuid where id = ${study.id}::uuid`,
    );
    for (const q of ['effusion', 'zygomatic']) {
      expect(await idsFound(server, rad1, { q }), q).toContain(report.id);
      expect(await idsFound(server, rad2, { q }), q).not.toContain(report.id);
      const facilityOne = await idsFound(server, world.tokens.admin, { q, facility_ids: [world.f1.id] });
      expect(facilityOne, q).toContain(report.id);
    }
    await server.db.execute(sql`update studies set status = 'DELETED' where id = ${study.id}::uuid`);
    for (const q of ['effusion', 'zygomatic']) {
      expect(await idsFound(server, rad1, { q }), q).not.toContain(report.id);
      expect(await idsFound(server, world.tokens.admin, { q }), q).toContain(report.id);
    }
  });

  it("narrows to a radiologist's new facilities on the next request, and refuses a disabled one", async () => {
    const user = await buildUser(server.db, { facilities: [world.f1] });
    const token = await tokenFor(server, user);
    const { effusion, effusions, fracture, prior } = world.reports;
    expect(sorted(await idsFound(server, token, { q: 'effusion' }))).toEqual(
      sorted([effusion.id, effusions.id, prior.id]),
    );
    const save = (fields: Record<string, string>) =>
      postUserForm(server, world.tokens.admin, { by_user_id: world.admin.id, id: user.id, ...fields });
    expect((await save({ facility_fks: world.f2.id })).status).toBe(200);
    expect(await idsFound(server, token, { q: 'effusion' })).toEqual([fracture.id]);
    expect(await idsFound(server, token, { q: 'displaced' })).toEqual([fracture.id]);
    expect(await idsFound(server, token, { patient_id: world.patient.id })).toEqual([]);
    const named = await searchAs(server, token, { facility_ids: [world.f1.id] });
    expect(named.status).toBe(404);
    expect(named.text).toContain('facility_ids');
    expect((await save({ status: 'INACTIVE' })).status).toBe(200);
    expect((await searchAs(server, token, { q: 'effusion' })).status).toBe(401);
  });

  it("shows a radiologist none of another facility's priors", async () => {
    const priors = await idsFound(server, world.tokens.rad2, {
      patient_id: world.patient.id,
      exclude_study_id: world.studies.effusionStudy.id,
    });
    expect(priors).toEqual([]);
  });
});
