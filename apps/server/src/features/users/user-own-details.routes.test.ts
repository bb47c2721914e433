import { ZSaveUserResponse } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { buildUserAdminWorld, type TUserAdminWorld } from '../../test/user-admin-world.ts';

// POST /user with id = oneself by someone who does not administer users (the profile): names,
// display name, a radiologist's description and signature; never what decides access, nor the e-mail.

let server: TTestServer;
let w: TUserAdminWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildUserAdminWorld(server);
});
afterAll(async () => {
  await server.close();
});

/** A real 1 × 1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const fieldOf = (response: { json: unknown }) =>
  (response.json as { error?: { details?: { field?: string } } }).error?.details?.field;

describe('POST /user for oneself, without administering users', () => {
  it('a radiologist changes their names, description and signature; audited; access untouched', async () => {
    const me = w.users.radiologist;
    const before = await w.row(me.id);
    const response = await w.save(
      'radiologist',
      {
        id: me.id,
        first_name: 'Anjali',
        last_name: 'Rao',
        display_name: 'Dr Anjali Rao',
        radiologist_description: 'MD Radiology\r\nNeuroradiology',
      },
      { data: PNG, filename: 'signature.png' },
    );
    expect(response.status, response.text).toBe(200);
    const body = ZSaveUserResponse.parse(response.json);
    expect(body.user).toMatchObject({
      id: me.id,
      first_name: 'Anjali',
      display_name: 'Dr Anjali Rao',
      radiologist_description: 'MD Radiology\nNeuroradiology',
      role: 'RADIOLOGIST',
      status: 'ACTIVE',
    });
    const after = await w.row(me.id);
    expect(after.signatureFileId).not.toBeNull();
    expect(after.signatureFileId).not.toBe(before.signatureFileId);
    expect(after.tokensValidAfter).toEqual(before.tokensValidAfter);
    const audit = await server.db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.action, 'user.updated'), eq(t.auditEvents.actorUserId, me.id)));
    expect(audit.length).toBeGreaterThan(0);
    // The token still works: nothing that decides access changed.
    expect((await w.get('radiologist', `/user/details/${me.id}`)).status).toBe(200);
  });

  it('a transcriptionist and a referring physician change their display name', async () => {
    for (const who of ['transcriptionist', 'referrer'] as const) {
      const me = w.users[who];
      const response = await w.save(who, { id: me.id, display_name: `Changed ${who}` });
      expect(response.status, response.text).toBe(200);
      expect((await w.row(me.id)).displayName).toBe(`Changed ${who}`);
    }
  });

  it('refuses, naming the field, what is not theirs to change, and writes nothing', async () => {
    const me = w.users.transcriptionist;
    const before = await w.row(me.id);
    const cases: [Record<string, string | string[]>, number, string][] = [
      [{ role: 'ADMIN' }, 403, 'role'],
      [{ status: 'INACTIVE' }, 403, 'status'],
      [{ facility_fks: [w.f1.id, w.f2.id] }, 403, 'facility_fks'],
      [{ email: 'someone-else@example.test' }, 403, 'email'],
      [{ radiologist_description: 'Not a radiologist' }, 400, 'radiologist_description'],
      [{ user_type: 'REPORTER' }, 403, 'user_type'],
    ];
    for (const [fields, status, field] of cases) {
      const response = await w.save('transcriptionist', {
        id: me.id,
        display_name: 'Should not stick',
        ...fields,
      });
      expect(response.status, `${JSON.stringify(fields)} ${response.text}`).toBe(status);
      expect(fieldOf(response)).toBe(field);
    }
    const signature = await w.save('transcriptionist', { id: me.id }, { data: PNG, filename: 'sig.png' });
    expect(signature.status, signature.text).toBe(400);
    expect(fieldOf(signature)).toBe('signature_file');
    const after = await w.row(me.id);
    expect(after.displayName).toBe(before.displayName);
    expect(after.role).toBe(before.role);
    expect(after.signatureFileId).toBeNull();
  });

  it('lets nobody without administration change someone else, create users, or act as another', async () => {
    const other = w.users.transcriptionist;
    const before = await w.row(other.id);
    const someoneElse = await w.save('radiologist', { id: other.id, display_name: 'Hacked' });
    expect(someoneElse.status).toBe(403);
    const create = await w.save('radiologist', {
      role: 'RADIOLOGIST',
      first_name: 'New',
      last_name: 'Person',
      email: `new-${Date.now()}@example.test`,
    });
    expect(create.status).toBe(403);
    const spoofed = await w.save('radiologist', {
      id: w.users.radiologist.id,
      display_name: 'Spoofed',
      by_user_id: other.id,
    });
    expect(spoofed.status).toBe(403);
    expect((await w.row(other.id)).displayName).toBe(before.displayName);
    expect((await w.row(w.users.radiologist.id)).displayName).not.toBe('Spoofed');
  });
});
