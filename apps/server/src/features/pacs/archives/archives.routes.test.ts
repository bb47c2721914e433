import { ZPacsArchive, ZPacsArchiveList, type TPacsArchive } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { buildFacility, buildStudy } from '../../../test/factories.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';

let server: TTestServer;
let w: TWorld;
let secondFacility: Awaited<ReturnType<typeof buildFacility>>;
let foreignFacility: Awaited<ReturnType<typeof buildFacility>>;

const PASSWORD = 'pa55-Archive-Secret-xyz';
const TOKEN = 'bearer-Token-Secret-abc';

beforeAll(async () => {
  server = await startTestServer();
  w = await buildReportWorld(server);
  secondFacility = await buildFacility(server.db, { organisationId: w.organisationId, name: 'Annex' });
  foreignFacility = await buildFacility(server.db);
});
afterAll(async () => {
  await server.close();
});

const validBody = (overrides: Record<string, unknown> = {}) => ({
  name: `Archive ${Math.random().toString(36).slice(2, 8)}`,
  kind: 'orthanc',
  dicomweb_url: 'http://127.0.0.1:8042/dicom-web/',
  orthanc_url: 'http://127.0.0.1:8042',
  auth_kind: 'basic',
  username: 'ris',
  secret: PASSWORD,
  facilities: [{ facility_id: w.facility.id, institution_name: 'General Hospital' }],
  default_facility_id: w.facility.id,
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}): Promise<TPacsArchive> {
  const response = await w.call('admin', 'POST', '/pacs/archives', validBody(overrides));
  expect(response.status, response.text).toBe(201);
  expect(response.text).not.toContain(PASSWORD);
  return ZPacsArchive.parse(response.json);
}

async function archiveRow(id: string) {
  const [row] = await server.db.select().from(t.pacsArchives).where(eq(t.pacsArchives.id, id));
  return row;
}

/**
 * What an administrator configures, without the sync state (and updated_at), which the archive's
 * sync jobs change in the background while the tests run.
 */
function settingsOf(row: typeof t.pacsArchives.$inferSelect | undefined) {
  if (!row) return row;
  return {
    id: row.id,
    organisationId: row.organisationId,
    name: row.name,
    kind: row.kind,
    dicomwebUrl: row.dicomwebUrl,
    orthancUrl: row.orthancUrl,
    authKind: row.authKind,
    username: row.username,
    secretSealed: row.secretSealed,
    defaultFacilityId: row.defaultFacilityId,
    enabled: row.enabled,
    pollIntervalSeconds: row.pollIntervalSeconds,
    createdAt: row.createdAt,
  };
}

const allSettings = async () =>
  (await server.db.select().from(t.pacsArchives).orderBy(t.pacsArchives.id)).map(settingsOf);

/** A 400 whose details name the field (details.field, or a details.fields entry of a schema failure). */
const expectField = (response: { status: number; text: string; json: unknown }, field: string) => {
  expect(response.status, response.text).toBe(400);
  const details = (response.json as { error: { details?: { field?: string; fields?: { field: string }[] } } })
    .error.details;
  const named = [details?.field, ...(details?.fields ?? []).map((entry) => entry.field.split('.')[0])];
  expect(named, response.text).toContain(field);
};

describe('POST /pacs/archives', () => {
  it('creates an archive with its facilities; the secret is sealed and never answered', async () => {
    const archive = await create({ name: 'Main Orthanc' });
    expect(archive).toMatchObject({
      name: 'Main Orthanc',
      kind: 'orthanc',
      dicomweb_url: 'http://127.0.0.1:8042/dicom-web',
      orthanc_url: 'http://127.0.0.1:8042',
      auth_kind: 'basic',
      username: 'ris',
      has_secret: true,
      facilities: [
        { facility_id: w.facility.id, facility_name: w.facility.name, institution_name: 'General Hospital' },
      ],
      default_facility_id: w.facility.id,
      enabled: true,
      poll_interval_seconds: 10,
      sync: { last_sync_at: null, last_success_at: null, last_error: null, failure_count: 0 },
    });
    expect(archive).not.toHaveProperty('secret');
    const row = await archiveRow(archive.id);
    expect(row?.organisationId).toBe(w.organisationId);
    expect(row?.secretSealed).toMatch(/^v1\./);
    expect(row?.secretSealed).not.toContain(PASSWORD);
    expect(server.app.secretBox.open(row?.secretSealed ?? '')).toBe(PASSWORD);
    const [audit] = await server.db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.entityType, 'pacs_archive'), eq(t.auditEvents.entityId, archive.id)));
    expect(audit).toMatchObject({ action: 'pacs_archive.created', actorUserId: w.users.admin.id });
    expect(JSON.stringify(audit?.data)).not.toContain(PASSWORD);
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const before = await allSettings();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(121) }, 'name'],
      [{ kind: 'pacs' }, 'kind'],
      [{ dicomweb_url: 'ftp://pacs/dicom-web' }, 'dicomweb_url'],
      [{ dicomweb_url: 'http://ris:secret@127.0.0.1:8042/dicom-web' }, 'dicomweb_url'],
      [{ orthanc_url: 'http://ris:secret@127.0.0.1:8042' }, 'orthanc_url'],
      [{ orthanc_url: null }, 'orthanc_url'],
      [{ username: null }, 'username'],
      [{ secret: undefined }, 'secret'],
      [{ auth_kind: 'bearer', secret: '' }, 'secret'],
      [{ auth_kind: 'kerberos' }, 'auth_kind'],
      [{ facilities: [{ facility_id: foreignFacility.id }], default_facility_id: null }, 'facilities'],
      [{ facilities: [{ facility_id: 'not-a-uuid' }] }, 'facilities'],
      [{ default_facility_id: secondFacility.id }, 'default_facility_id'],
      [{ poll_interval_seconds: 0 }, 'poll_interval_seconds'],
      [{ poll_interval_seconds: 3601 }, 'poll_interval_seconds'],
    ];
    for (const [overrides, field] of cases) {
      const response = await w.call('admin', 'POST', '/pacs/archives', validBody(overrides));
      expectField(response, field);
      expect(response.text).not.toContain(PASSWORD);
    }
    expect(await allSettings()).toEqual(before);
  });

  it('answers 409 for a name the organisation already uses (any case); another organisation may', async () => {
    await create({ name: 'Duplicate Name' });
    const again = await w.call('admin', 'POST', '/pacs/archives', validBody({ name: 'duplicate name' }));
    expect(again.status, again.text).toBe(409);
    expect(again.text).toContain('name');
    const elsewhere = await w.call(
      'outsider',
      'POST',
      '/pacs/archives',
      validBody({ name: 'Duplicate Name', facilities: [], default_facility_id: null }),
    );
    expect(elsewhere.status, elsewhere.text).toBe(201);
  });

  it('lets only one of two simultaneous creates with the same name through', async () => {
    const body = validBody({ name: 'Raced name' });
    const answers = await Promise.all([
      w.call('admin', 'POST', '/pacs/archives', body),
      w.call('admin', 'POST', '/pacs/archives', body),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const named = await server.db.select().from(t.pacsArchives).where(eq(t.pacsArchives.name, 'Raced name'));
    expect(named).toHaveLength(1);
  });

  it('refuses an over-long secret without repeating it', async () => {
    const secret = `S${'x'.repeat(4000)}`;
    const response = await w.call('admin', 'POST', '/pacs/archives', validBody({ secret }));
    expectField(response, 'secret');
    expect(response.text).not.toContain(secret.slice(0, 40));
  });

  it('is for administrators only', async () => {
    for (const user of ['facilityAdmin', 'radiologist', 'transcriptionist', 'referrer'] as TWorldUser[]) {
      const response = await w.call(user, 'POST', '/pacs/archives', validBody());
      expect(response.status, `${user} ${response.text}`).toBe(403);
    }
  });
});

describe('GET /pacs/archives', () => {
  it('lists the organisation’s archives to its administrators, never a secret', async () => {
    const bearer = await create({
      name: 'Bearer archive',
      kind: 'dicomweb',
      auth_kind: 'bearer',
      secret: TOKEN,
    });
    const response = await w.call('admin', 'GET', '/pacs/archives');
    expect(response.status, response.text).toBe(200);
    expect(response.text).not.toContain(PASSWORD);
    expect(response.text).not.toContain(TOKEN);
    expect(response.text).not.toContain('secret_sealed');
    expect(response.text).not.toMatch(/"v1\./);
    const { archives } = ZPacsArchiveList.parse(response.json);
    expect(archives.find((archive) => archive.id === bearer.id)).toMatchObject({
      auth_kind: 'bearer',
      username: null,
      has_secret: true,
    });
    expect(archives.map((archive) => archive.name)).not.toContain('Duplicate Name'.toUpperCase());
    // The other organisation's archive of the same name is not among them.
    expect(archives.filter((archive) => archive.name === 'Duplicate Name')).toHaveLength(1);
  });

  it('answers 403 to everyone but administrators', async () => {
    for (const user of [
      'facilityAdmin',
      'radiologist',
      'reporter',
      'transcriptionist',
      'referrer',
    ] as TWorldUser[]) {
      const response = await w.call(user, 'GET', '/pacs/archives');
      expect(response.status, `${user} ${response.text}`).toBe(403);
    }
  });
});

describe('PUT /pacs/archives/{id}', () => {
  it('changes the fields given and keeps, replaces or clears the secret', async () => {
    const archive = await create();
    const sealed = (await archiveRow(archive.id))?.secretSealed;
    const renamed = await w.call('admin', 'PUT', `/pacs/archives/${archive.id}`, {
      name: 'Renamed',
      enabled: false,
      poll_interval_seconds: 60,
      facilities: [{ facility_id: w.facility.id }, { facility_id: secondFacility.id }],
      default_facility_id: secondFacility.id,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json).toMatchObject({
      name: 'Renamed',
      enabled: false,
      poll_interval_seconds: 60,
      has_secret: true,
    });
    expect((renamed.json as TPacsArchive).facilities.map((f) => f.facility_id).sort()).toEqual(
      [w.facility.id, secondFacility.id].sort(),
    );
    // Omitted secret: the same sealed text.
    expect((await archiveRow(archive.id))?.secretSealed).toBe(sealed);

    const replaced = await w.call('admin', 'PUT', `/pacs/archives/${archive.id}`, {
      secret: 'new-Password-789',
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.text).not.toContain('new-Password-789');
    expect(server.app.secretBox.open((await archiveRow(archive.id))?.secretSealed ?? '')).toBe(
      'new-Password-789',
    );

    // '' clears it, which basic authentication refuses; none clears the credentials.
    const cleared = await w.call('admin', 'PUT', `/pacs/archives/${archive.id}`, { secret: '' });
    expectField(cleared, 'secret');
    const none = await w.call('admin', 'PUT', `/pacs/archives/${archive.id}`, { auth_kind: 'none' });
    expect(none.status, none.text).toBe(200);
    expect(none.json).toMatchObject({ auth_kind: 'none', username: null, has_secret: false });
    expect((await archiveRow(archive.id))?.secretSealed).toBeNull();

    const audits = await server.db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.entityId, archive.id), eq(t.auditEvents.action, 'pacs_archive.updated')));
    expect(audits.length).toBe(3);
    expect(audits.map((audit) => audit.data?.['changed'])).toContainEqual(['secret']);
    expect(JSON.stringify(audits)).not.toContain('new-Password-789');
  });

  it('starts the sync over when the archive behind it changes, not for other changes', async () => {
    const archive = await create({ enabled: false });
    const resumeAt = { changesCursor: 42, polledUntil: new Date('2026-11-20T00:00:00Z') };
    await server.db.update(t.pacsArchives).set(resumeAt).where(eq(t.pacsArchives.id, archive.id));
    await w.call('admin', 'PUT', `/pacs/archives/${archive.id}`, { poll_interval_seconds: 30 });
    expect(await archiveRow(archive.id)).toMatchObject(resumeAt);
    // Another port is another server: the stored password is given again (archive-secret test).
    const moved = await w.call('admin', 'PUT', `/pacs/archives/${archive.id}`, {
      orthanc_url: 'http://127.0.0.1:8043',
      secret: 'orthanc-password-again',
    });
    expect(moved.status, moved.text).toBe(200);
    expect(await archiveRow(archive.id)).toMatchObject({ changesCursor: null, polledUntil: null });
  });

  it('checks the result as a whole and writes nothing when refused', async () => {
    const archive = await create();
    const before = settingsOf(await archiveRow(archive.id));
    const links = () =>
      server.db
        .select()
        .from(t.pacsArchiveFacilities)
        .where(eq(t.pacsArchiveFacilities.archiveId, archive.id));
    const linksBefore = await links();
    const cases: [Record<string, unknown>, string][] = [
      [{ orthanc_url: null }, 'orthanc_url'],
      [{ username: '' }, 'username'],
      [{ auth_kind: 'bearer', secret: '' }, 'secret'],
      [{ facilities: [{ facility_id: secondFacility.id }] }, 'default_facility_id'],
      [{ facilities: [{ facility_id: foreignFacility.id }] }, 'facilities'],
      [{ dicomweb_url: 'https://user:pw@pacs.example.org/dicom-web' }, 'dicomweb_url'],
      [{ name: ' ' }, 'name'],
    ];
    for (const [body, field] of cases) {
      const response = await w.call('admin', 'PUT', `/pacs/archives/${archive.id}`, {
        name: 'Half written',
        ...body,
      });
      expectField(response, field);
    }
    const taken = await create();
    const conflict = await w.call('admin', 'PUT', `/pacs/archives/${archive.id}`, {
      name: taken.name.toUpperCase(),
    });
    expect(conflict.status, conflict.text).toBe(409);
    expect(settingsOf(await archiveRow(archive.id))).toEqual(before);
    expect(await links()).toEqual(linksBefore);
  });

  it('answers 403 to other roles of the organisation and 404 to another organisation, unchanged', async () => {
    const archive = await create();
    const before = settingsOf(await archiveRow(archive.id));
    for (const user of ['facilityAdmin', 'radiologist', 'transcriptionist', 'referrer'] as TWorldUser[]) {
      const response = await w.call(user, 'PUT', `/pacs/archives/${archive.id}`, { name: 'Taken over' });
      expect(response.status, `${user} ${response.text}`).toBe(403);
    }
    const outsider = await w.call('outsider', 'PUT', `/pacs/archives/${archive.id}`, { name: 'Taken over' });
    expect(outsider.status, outsider.text).toBe(404);
    const missing = await w.call('admin', 'PUT', `/pacs/archives/00000000-0000-4000-8000-000000000000`, {});
    expect(missing.status).toBe(404);
    expect(settingsOf(await archiveRow(archive.id))).toEqual(before);
  });
});

describe('DELETE /pacs/archives/{id}', () => {
  it('removes the archive; its studies stay without it', async () => {
    const archive = await create();
    const study = await buildStudy(server.db, { facility: w.facility, status: 'TO_READ' });
    await server.db.update(t.studies).set({ pacsArchiveId: archive.id }).where(eq(t.studies.id, study.id));

    for (const user of ['facilityAdmin', 'radiologist'] as TWorldUser[]) {
      const response = await w.call(user, 'DELETE', `/pacs/archives/${archive.id}`);
      expect(response.status, `${user} ${response.text}`).toBe(403);
    }
    const outsider = await w.call('outsider', 'DELETE', `/pacs/archives/${archive.id}`);
    expect(outsider.status, outsider.text).toBe(404);
    expect(await archiveRow(archive.id)).toBeDefined();

    const response = await w.call('admin', 'DELETE', `/pacs/archives/${archive.id}`);
    expect(response.status, response.text).toBe(200);
    expect(response.json).toEqual({ id: archive.id, deleted: true });
    expect(await archiveRow(archive.id)).toBeUndefined();
    const [kept] = await server.db.select().from(t.studies).where(eq(t.studies.id, study.id));
    expect(kept?.pacsArchiveId).toBeNull();
    const links = await server.db
      .select()
      .from(t.pacsArchiveFacilities)
      .where(eq(t.pacsArchiveFacilities.archiveId, archive.id));
    expect(links).toEqual([]);
    const [audit] = await server.db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.entityId, archive.id), eq(t.auditEvents.action, 'pacs_archive.deleted')));
    expect(audit?.actorUserId).toBe(w.users.admin.id);
    const again = await w.call('admin', 'DELETE', `/pacs/archives/${archive.id}`);
    expect(again.status).toBe(404);
  });
});

describe('sync of a new or re-enabled archive', () => {
  const syncJobs = async (archiveId: string) =>
    (await server.db.select().from(t.jobs).where(eq(t.jobs.queue, 'pacs.sync'))).filter(
      (job) => job.payload['archive_id'] === archiveId,
    );

  it('starts its chain of sync jobs at once, only while it is enabled', async () => {
    const on = await create();
    expect((await syncJobs(on.id)).length).toBeGreaterThan(0);
    const off = await create({ enabled: false });
    expect(await syncJobs(off.id)).toEqual([]);
    const enabled = await w.call('admin', 'PUT', `/pacs/archives/${off.id}`, { enabled: true });
    expect(enabled.status, enabled.text).toBe(200);
    expect((await syncJobs(off.id)).length).toBeGreaterThan(0);
  });
});

describe('GET /user/details: manage_archives', () => {
  it('is true for administrators only', async () => {
    for (const [user, expected] of [
      ['admin', true],
      ['facilityAdmin', false],
      ['radiologist', false],
    ] as [TWorldUser, boolean][]) {
      const response = await w.call(user, 'GET', `/user/details/${w.users[user].id}`);
      expect(response.status, response.text).toBe(200);
      expect(
        (response.json as { capabilities: { manage_archives: boolean } }).capabilities.manage_archives,
      ).toBe(expected);
    }
  });
});
