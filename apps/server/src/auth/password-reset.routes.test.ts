import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, authActionTokens, outboundMessages, users } from '../db/schema/index.ts';
import { signIn } from '../test/auth-helpers.ts';
import { buildUser, TEST_PASSWORD } from '../test/factories.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { disableUser } from './disable-user.ts';
import { hashToken, randomToken } from './secrets.ts';

// Without SMTP_URL, mail goes to the outbox (outbound_messages): the path this file covers.
let server: TTestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { PUBLIC_URL: 'https://ris.example.test' } });
});
afterAll(async () => {
  await server.close();
});

const requestReset = (email: string) =>
  server.request('POST', '/api/v1/auth/password-reset/request', { body: { email } });
const confirm = (token: string, password: string) =>
  server.request('POST', '/api/v1/auth/password-reset/confirm', { body: { token, password } });

async function resetTokenFromOutbox(email: string): Promise<string> {
  await server.identity.settled();
  const [mail] = await server.db.select().from(outboundMessages).where(eq(outboundMessages.recipient, email));
  const link = /https:\/\/ris\.example\.test\/forgot-password\?token=([A-Za-z0-9_-]+)/.exec(mail?.body ?? '');
  if (!link?.[1]) throw new Error(`no reset link in the outbox for ${email}: ${mail?.body}`);
  return link[1];
}

describe('password reset', () => {
  it('answers every address the same and mails a one-time link only to an existing account', async () => {
    const user = await buildUser(server.db);
    const known = await requestReset(user.email);
    const unknown = await requestReset('nobody-here@example.test');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.text).toBe(unknown.text);
    await server.identity.settled();
    const outbox = await server.db.select().from(outboundMessages);
    expect(outbox.map((mail) => mail.recipient)).toEqual([user.email]);
    expect(outbox[0]).toMatchObject({
      channel: 'email',
      status: 'PENDING',
      subject: 'Reset your RIS password',
    });
    const [stored] = await server.db
      .select()
      .from(authActionTokens)
      .where(eq(authActionTokens.userId, user.id));
    expect(outbox[0]?.body).not.toContain(stored?.tokenHash);
  });

  it('creates the link token and mails it only after the answer has been sent (reset and e-mail link)', async () => {
    const mail = server.identity.context.mail;
    const dispatch = mail.dispatch.bind(mail);
    // Each composer (token, audit, mail) notes whether the answer was fully sent when it started.
    const startedAfterAnswer: boolean[] = [];
    mail.dispatch = (message, response) =>
      dispatch(
        typeof message === 'function'
          ? async () => {
              startedAfterAnswer.push(response?.writableFinished === true);
              return message();
            }
          : message,
        response,
      );
    try {
      for (const path of ['/api/v1/auth/password-reset/request', '/api/v1/auth/email-link/request']) {
        const user = await buildUser(server.db);
        const answer = await server.request('POST', path, { body: { email: user.email } });
        expect(answer.status, path).toBe(200);
        await server.identity.settled();
        const tokens = await server.db
          .select()
          .from(authActionTokens)
          .where(eq(authActionTokens.userId, user.id));
        expect(tokens, path).toHaveLength(1);
      }
    } finally {
      mail.dispatch = dispatch;
    }
    expect(startedAfterAnswer).toEqual([true, true]);
  });

  it('sets the new password once, ends every session and audits both steps', async () => {
    const user = await buildUser(server.db);
    const before = await signIn(server, user.email, TEST_PASSWORD);
    await requestReset(user.email);
    const token = await resetTokenFromOutbox(user.email);

    const response = await confirm(token, 'brand-new-password');
    expect(response.status, response.text).toBe(200);
    expect((await confirm(token, 'another-new-password')).json).toMatchObject({
      error: { code: 'auth/invalid-action-code' },
    });

    const old = await server.request('POST', '/api/v1/auth/sign-in', {
      body: { email: user.email, password: TEST_PASSWORD },
    });
    expect(old.status).toBe(401);
    await signIn(server, user.email, 'brand-new-password');
    const refresh = await server.request('POST', '/api/v1/auth/refresh', {
      body: { refresh_token: before.refresh_token },
    });
    expect(refresh.status).toBe(401);

    const actions = (await server.db.select().from(auditEvents).where(eq(auditEvents.entityId, user.id))).map(
      (event) => event.action,
    );
    expect(actions).toEqual(expect.arrayContaining(['auth.password_reset_requested', 'auth.password_reset']));
  });

  it('a link sent before the account was disabled no longer works (reset and e-mail link)', async () => {
    const user = await buildUser(server.db);
    await requestReset(user.email);
    const token = await resetTokenFromOutbox(user.email);
    await server.request('POST', '/api/v1/auth/email-link/request', { body: { email: user.email } });
    await server.identity.settled();
    await disableUser(server.db, user.id, { actorUserId: null });

    const reset = await confirm(token, 'brand-new-password');
    expect(reset.status).toBe(400);
    expect(reset.json).toMatchObject({ error: { code: 'auth/invalid-action-code' } });
    const [row] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.passwordHash).toBe(user.passwordHash);
    const links = await server.db.select().from(authActionTokens).where(eq(authActionTokens.userId, user.id));
    expect(links.map((link) => link.kind).sort()).toEqual(['email_link', 'password_reset']);
    expect(links.every((link) => link.usedAt !== null)).toBe(true);
  });

  it('refuses a reset for an account that is not ACTIVE, whatever retired its links or not', async () => {
    const user = await buildUser(server.db);
    await requestReset(user.email);
    const token = await resetTokenFromOutbox(user.email);
    // Deactivated without disableUser (e.g. straight in the database): the link is still unused.
    await server.db.update(users).set({ status: 'INACTIVE' }).where(eq(users.id, user.id));
    const reset = await confirm(token, 'brand-new-password');
    expect(reset.status).toBe(403);
    expect(reset.json).toMatchObject({ error: { code: 'auth/user-disabled' } });
    const [row] = await server.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.passwordHash).toBe(user.passwordHash);
  });

  it('keeps the link usable when the new password is refused', async () => {
    const user = await buildUser(server.db);
    await requestReset(user.email);
    const token = await resetTokenFromOutbox(user.email);
    const weak = await confirm(token, 'short');
    expect(weak.status).toBe(400);
    expect(weak.json).toMatchObject({
      error: { code: 'auth/weak-password', details: { rule: 'min_length' } },
    });
    expect((await confirm(token, 'long-enough-now')).status).toBe(200);
  });

  it('answers auth/expired-action-code for an expired link and auth/invalid-action-code for an unknown one', async () => {
    const user = await buildUser(server.db);
    const token = randomToken();
    await server.db.insert(authActionTokens).values({
      userId: user.id,
      kind: 'password_reset',
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() - 60_000),
    });
    const expired = await confirm(token, 'brand-new-password');
    expect(expired.status).toBe(400);
    expect(expired.json).toEqual({
      error: {
        code: 'auth/expired-action-code',
        message: 'This link has expired. Please ask for a new one.',
      },
    });
    expect((await confirm(randomToken(), 'brand-new-password')).json).toMatchObject({
      error: { code: 'auth/invalid-action-code' },
    });
    const [row] = await server.db
      .select()
      .from(authActionTokens)
      .where(and(eq(authActionTokens.userId, user.id), eq(authActionTokens.kind, 'password_reset')));
    expect(row?.usedAt).toBeNull();
  });

  it('does not accept an e-mail link token as a reset token', async () => {
    const user = await buildUser(server.db);
    const token = randomToken();
    await server.db.insert(authActionTokens).values({
      userId: user.id,
      kind: 'email_link',
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect((await confirm(token, 'brand-new-password')).json).toMatchObject({
      error: { code: 'auth/invalid-action-code' },
    });
  });
});
