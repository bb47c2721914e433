import type { TSaveUserFields } from '@ris/domain';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { LocalDiskBlobStore } from '../../files/local-disk-store.ts';
import type { AppError } from '../../http/app-error.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { buildUser } from '../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { buildUserAdminWorld, savedUser, type TUserAdminWorld } from '../../test/user-admin-world.ts';
import { saveUser } from './commands/save-user.ts';

// Who stays an admin, and how fast a change reaches the user it is about: disabling, a new role or
// new facilities apply on the user's very next request.
let server: TTestServer;
let w: TUserAdminWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildUserAdminWorld(server);
});
afterAll(async () => {
  await server.close();
});

const activeAdmins = async (world: TUserAdminWorld) =>
  server.db
    .select({ id: t.users.id })
    .from(t.users)
    .where(
      and(
        eq(t.users.organisationId, world.organisationId),
        eq(t.users.role, 'ADMIN'),
        eq(t.users.status, 'ACTIVE'),
      ),
    );

describe('the last active admin', () => {
  const changes = {
    demote: (world: TUserAdminWorld) => ({ role: 'TRANSCRIPTIONIST', facility_fks: world.f1.id }),
    disable: () => ({ status: 'INACTIVE' }),
  };
  for (const [name, change] of Object.entries(changes)) {
    it(`two admins who ${name} each other at once: one wins, an active admin remains`, async () => {
      // The organisation has exactly these two admins.
      const world = await buildUserAdminWorld(server);
      const [first, second] = await Promise.all([
        world.save('admin', { id: world.users.secondAdmin.id, ...change(world) }),
        world.save('secondAdmin', { id: world.users.admin.id, ...change(world) }),
      ]);
      const statuses = [first?.status, second?.status];
      expect(
        statuses.filter((status) => status === 200),
        `${first?.text} ${second?.text}`,
      ).toHaveLength(1);
      // The loser waited for the lock (409: the other is now the last admin), or came in after the
      // winner's commit with the token of a demoted or disabled user (401/403).
      expect([401, 403, 409]).toContain(statuses.find((status) => status !== 200));
      expect(await activeAdmins(world)).toHaveLength(1);
    });
  }

  it('cannot be demoted or disabled by a request authenticated before its caller was demoted (409)', async () => {
    const world = await buildUserAdminWorld(server);
    // secondAdmin was demoted a moment ago; their request had already passed authentication.
    await server.db
      .update(t.users)
      .set({ role: 'TRANSCRIPTIONIST' })
      .where(eq(t.users.id, world.users.secondAdmin.id));
    const scope = {
      principal: {
        userId: world.users.secondAdmin.id,
        email: world.users.secondAdmin.email,
        organisationId: world.organisationId,
        role: 'ADMIN' as const,
        userType: null,
        facilityIds: [],
        sessionId: 'test',
        issuedAt: Math.floor(Date.now() / 1000),
      },
      organisationId: world.organisationId,
      allFacilities: true,
      facilityIds: [world.f1.id, world.f2.id],
    };
    const attempts: [Partial<TSaveUserFields>, string][] = [
      [{ role: 'RADIOLOGIST', facility_fks: [world.f1.id] }, 'role'],
      [{ status: 'INACTIVE' }, 'status'],
    ];
    for (const [fields, field] of attempts) {
      const attempt = server.db.transaction((tx) =>
        saveUser(tx, {
          scope,
          fields: { id: world.users.admin.id, by_user_id: world.users.secondAdmin.id, ...fields },
          signature: null,
          origin: { ip: '127.0.0.1', userAgent: 'test' },
          publicUrl: 'http://ris.test',
          blobs: new LocalDiskBlobStore(server.dataDir),
        }),
      );
      await expect(attempt).rejects.toMatchObject({
        code: 'CONFLICT',
        status: 409,
        details: { field, reason: 'last-admin' },
      } satisfies Partial<AppError>);
    }
    expect(await world.row(world.users.admin.id)).toMatchObject({ role: 'ADMIN', status: 'ACTIVE' });
  });

  it('another admin may be demoted while one remains', async () => {
    const world = await buildUserAdminWorld(server);
    const demoted = savedUser(
      await world.save('admin', {
        id: world.users.secondAdmin.id,
        role: 'TRANSCRIPTIONIST',
        facility_fks: world.f1.id,
      }),
    );
    expect(demoted.role).toBe('TRANSCRIPTIONIST');
    expect(await activeAdmins(world)).toEqual([{ id: world.users.admin.id }]);
  });
});

describe('changes apply on the next request', () => {
  const me = (token: string, id: string) => server.request('GET', `/api/v1/user/${id}`, { token });

  it('a disabled user is refused at once, their sessions end, and enabling does not revive old tokens', async () => {
    const user = await buildUser(server.db, { role: 'TRANSCRIPTIONIST', facilities: [w.f1] });
    const token = await tokenFor(server, user);
    expect((await me(token, user.id)).status).toBe(200);
    const disabled = savedUser(await w.save('facilityAdmin', { id: user.id, status: 'INACTIVE' }));
    expect(disabled).toMatchObject({
      status: 'INACTIVE',
      abilities: { disable: true, reset_password: false },
    });
    const refused = await me(token, user.id);
    expect(refused.status).toBe(401);
    expect(refused.json).toMatchObject({ error: { code: 'auth/id-token-revoked' } });
    const live = await server.db
      .select()
      .from(t.authSessions)
      .where(and(eq(t.authSessions.userId, user.id), isNull(t.authSessions.revokedAt)));
    expect(live).toEqual([]);
    const [audit] = await server.db
      .select()
      .from(t.auditEvents)
      .where(and(eq(t.auditEvents.entityId, user.id), eq(t.auditEvents.action, 'auth.user_disabled')));
    expect(audit?.actorUserId).toBe(w.users.facilityAdmin.id);
    expect(savedUser(await w.save('facilityAdmin', { id: user.id, status: 'ACTIVE' })).status).toBe('ACTIVE');
    expect((await me(token, user.id)).status).toBe(401);
    expect((await me(await tokenFor(server, user), user.id)).status).toBe(200);
  });

  it('a new role ends the sessions: the token of the old role is refused on the next request', async () => {
    const user = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [w.f1] });
    const token = await tokenFor(server, user);
    expect((await me(token, user.id)).status).toBe(200);
    savedUser(await w.save('admin', { id: user.id, role: 'TRANSCRIPTIONIST' }));
    expect((await me(token, user.id)).status).toBe(401);
  });

  it('new facilities apply to the token already issued', async () => {
    const user = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [w.f1] });
    const token = await tokenFor(server, user);
    expect((await me(token, w.users.transcriptionist.id)).status).toBe(200);
    expect((await me(token, w.users.transcriptionistF2.id)).status).toBe(404);
    savedUser(await w.save('admin', { id: user.id, facility_fks: w.f2.id }));
    expect((await me(token, w.users.transcriptionist.id)).status).toBe(404);
    expect((await me(token, w.users.transcriptionistF2.id)).status).toBe(200);
  });
});
