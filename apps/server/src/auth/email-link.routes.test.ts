import type { TSessionResponse } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authActionTokens, outboundMessages } from '../db/schema/index.ts';
import { buildUser } from '../test/factories.ts';
import { startSmtpCapture, type TSmtpCapture } from '../test/smtp-capture.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import { hashToken, randomToken } from './secrets.ts';

// E-mail links delivered through a real SMTP server on 127.0.0.1 (SMTP_URL).
let smtp: TSmtpCapture;
let server: TTestServer;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  server = await startTestServer({
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'RIS Test <ris@example.test>',
      PUBLIC_URL: 'https://ris.example.test',
    },
  });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const requestLink = (email: string) =>
  server.request('POST', '/api/v1/auth/email-link/request', { body: { email } });
const useLink = (token: string) =>
  server.request('POST', '/api/v1/auth/email-link/sign-in', { body: { token } });

describe('e-mail link sign-in', () => {
  it('mails a link through SMTP that signs in once', async () => {
    const user = await buildUser(server.db, { role: 'TRANSCRIPTIONIST' });
    const response = await requestLink(user.email);
    expect(response.status).toBe(200);

    const mail = await smtp.nextMail();
    expect(mail.to).toEqual([user.email]);
    expect(mail.from).toBe('ris@example.test');
    expect(mail.decoded).toContain('Subject: Your RIS sign-in link');
    const link = /https:\/\/ris\.example\.test\/login\?email_link_token=([A-Za-z0-9_-]+)/.exec(mail.decoded);
    expect(link?.[1]).toBeDefined();
    const token = link?.[1] ?? '';

    const signedIn = await useLink(token);
    expect(signedIn.status, signedIn.text).toBe(200);
    const session = signedIn.json as TSessionResponse;
    expect(session.user.id).toBe(user.id);
    expect(signedIn.headers.get('set-cookie')).toContain('ris_refresh=');
    const again = await useLink(token);
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ error: { code: 'auth/invalid-action-code' } });

    // Nothing went to the outbox: SMTP delivered it.
    expect(await server.db.select().from(outboundMessages)).toEqual([]);
  });

  it('answers an unknown or disabled address like a known one and sends nothing', async () => {
    const disabled = await buildUser(server.db, { status: 'INACTIVE' });
    const active = await buildUser(server.db);
    const unknown = await requestLink('nobody-here@example.test');
    const inactive = await requestLink(disabled.email);
    const known = await requestLink(active.email);
    expect(unknown.text).toBe(known.text);
    expect(inactive.text).toBe(known.text);
    // Only the active account's mail arrives.
    expect((await smtp.nextMail()).to).toEqual([active.email]);
    await server.identity.settled();
    const tokens = await server.db
      .select()
      .from(authActionTokens)
      .where(eq(authActionTokens.userId, disabled.id));
    expect(tokens).toEqual([]);
  });

  it('refuses an expired link with auth/expired-action-code', async () => {
    const user = await buildUser(server.db);
    const token = randomToken();
    await server.db.insert(authActionTokens).values({
      userId: user.id,
      kind: 'email_link',
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() - 1000),
    });
    const response = await useLink(token);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: { code: 'auth/expired-action-code' } });
  });

  it('has no GET that would let a mail scanner use the link', async () => {
    const response = await server.request('GET', '/api/v1/auth/email-link/sign-in?token=abc');
    expect(response.status).toBe(404);
  });
});
