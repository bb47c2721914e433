import { MAX_SUPPORT_FILE_BYTES, MAX_SUPPORT_FILES, type TOutboxPage } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { tokenFor } from '../../test/auth-helpers.ts';
import { messagesOf, shareAs } from '../../test/comm-test-helpers.ts';
import { buildUser } from '../../test/factories.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { SHARE_RATE_LIMIT } from '../comm/share.routes.ts';

// No SMTP_URL, no WHATSAPP_*: how a demo install "sends" — everything waits in the outbox.
let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  server = await startTestServer({ env: { SUPPORT_EMAIL: 'help@ris.example.org' } });
  w = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const TEXT = Buffer.from('just some text pretending to be an image');

type TFile = { name: string; data: Buffer; type?: string };

async function support(user: TWorldUser, fields: Record<string, string> = {}, files: TFile[] = []) {
  const form = new FormData();
  const values = {
    user_id: w.users[user].id,
    user_name: 'Someone',
    email: 'someone@clinic.test',
    message: 'Help, please.',
    ...fields,
  };
  for (const [key, value] of Object.entries(values)) form.append(key, value);
  for (const file of files) {
    form.append(
      'upload_files',
      new Blob([new Uint8Array(file.data)], { type: file.type ?? 'image/png' }),
      file.name,
    );
  }
  const response = await fetch(`${server.url}/api/v1/comm/email/send-support`, {
    method: 'POST',
    headers: { authorization: `Bearer ${w.token(user)}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? (JSON.parse(text) as unknown) : undefined };
}

const supportCount = async () =>
  (await server.db.select().from(t.outboundMessages).where(eq(t.outboundMessages.kind, 'support'))).length;

describe('without providers, messages wait in the outbox', () => {
  it('a report share is stored with state outbox and no job', async () => {
    const { studyId } = await w.studyWithReport({ status: 'FINAL' });
    const email = await shareAs(server, w, 'radiologist', 'email', {
      worklist_id: studyId,
      emails: ['a@clinic.test'],
    });
    const whatsapp = await shareAs(server, w, 'radiologist', 'whatsapp', {
      worklist_id: studyId,
      mobile_numbers: ['+919876543210'],
    });
    expect([email.status, whatsapp.status]).toEqual([202, 202]);
    const messages = [...messagesOf(email), ...messagesOf(whatsapp)];
    expect(messages.map((m) => m.state)).toEqual(['outbox', 'outbox']);
    expect(await server.db.select().from(t.jobs)).toEqual([]);
    const outbox = (await w.call('admin', 'GET', '/comm/outbox?channel=whatsapp')).json as TOutboxPage;
    expect(outbox.items.map((item) => item.id)).toEqual([messages[1]?.id]);
    expect(outbox.items[0]?.attachment_name).toMatch(/_report\.pdf$/);
  });
});

describe('share rate limit', () => {
  it('limits each user to 30 share requests in 10 minutes, e-mail and WhatsApp together (429)', async () => {
    const user = await buildUser(server.db, { role: 'ADMIN', organisationId: w.organisationId });
    const token = await tokenFor(server, user);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const statuses: number[] = [];
    for (let i = 0; i <= SHARE_RATE_LIMIT.max; i++) {
      const email = i % 2 === 0;
      const response = await server.request(
        'POST',
        `/api/v1/comm/${email ? 'email' : 'whatsapp'}/send-report-pdf`,
        {
          token,
          body: {
            worklist_id: unknown,
            by_user_id: user.id,
            ...(email ? { emails: ['x@clinic.test'] } : { mobile_numbers: ['+919876543210'] }),
          },
        },
      );
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.json).toMatchObject({ error: { code: 'TOO_MANY_REQUESTS' } });
      }
    }
    expect(statuses.slice(0, SHARE_RATE_LIMIT.max).every((status) => status === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Others are not affected.
    const { studyId } = await w.studyWithReport({ status: 'FINAL' });
    const other = await shareAs(server, w, 'admin', 'email', {
      worklist_id: studyId,
      emails: ['y@clinic.test'],
    });
    expect(other.status).toBe(202);
  });
});

describe('GET /comm/outbox', () => {
  it('never lists account mail (its sign-in links carry live one-time tokens)', async () => {
    const email = w.users.facilityAdmin.email;
    const reset = await server.request('POST', '/api/v1/auth/password-reset/request', { body: { email } });
    expect(reset.status).toBe(200);
    const accountMail = async () =>
      (
        await server.db.select().from(t.outboundMessages).where(eq(t.outboundMessages.kind, 'account'))
      ).filter((row) => row.recipient === email);
    await expect.poll(async () => (await accountMail()).length, { timeout: 10_000 }).toBe(1);
    const [mail] = await accountMail();
    expect(mail?.organisationId).toBe(w.organisationId);
    const outbox = (await w.call('admin', 'GET', '/comm/outbox?limit=100')).json as TOutboxPage;
    expect(outbox.items.map((item) => item.id)).not.toContain(mail?.id);
    expect(outbox.items.every((item) => item.recipient !== email)).toBe(true);
    const total = (
      await server.db
        .select()
        .from(t.outboundMessages)
        .where(eq(t.outboundMessages.organisationId, w.organisationId))
    ).filter((row) => row.kind !== 'account').length;
    expect(outbox.total).toBe(total);
  });
});

describe('POST /comm/email/send-support', () => {
  it('stores the message and its files (checked by content) in the outbox', async () => {
    const response = await support('transcriptionist', { user_name: 'Tia', email: 'TIA@clinic.test' }, [
      { name: 'screen.png', data: PNG },
    ]);
    expect(response.status).toBe(202);
    const body = response.json as { id: string; state: string };
    expect(body.state).toBe('outbox');
    const [row] = await server.db.select().from(t.outboundMessages).where(eq(t.outboundMessages.id, body.id));
    expect(row).toMatchObject({
      kind: 'support',
      channel: 'email',
      recipient: 'help@ris.example.org',
      subject: 'Support request from Tia',
      status: 'PENDING',
      jobId: null,
      createdBy: w.users.transcriptionist.id,
      organisationId: w.organisationId,
    });
    expect(row?.body).toContain('Help, please.');
    expect(row?.body).toContain('tia@clinic.test');
    const [file] = await server.db
      .select()
      .from(t.storedFiles)
      .where(eq(t.storedFiles.id, row?.attachments[0]?.file_id ?? ''));
    expect(file).toMatchObject({
      mediaType: 'image/png',
      originalName: 'screen.png',
      sizeBytes: PNG.byteLength,
    });
    const outbox = (await w.call('admin', 'GET', '/comm/outbox')).json as TOutboxPage;
    expect(outbox.items.find((item) => item.id === body.id)).toMatchObject({
      state: 'outbox',
      attachment_name: 'screen.png',
      subject: 'Support request from Tia',
    });
  });

  it('refuses another user’s id (403), a file that is not an image or PDF (415), bad fields (400)', async () => {
    const before = await supportCount();
    const other = await support('reporter', { user_id: w.users.admin.id });
    expect(other.status).toBe(403);
    expect(other.json).toMatchObject({ error: { details: { field: 'user_id' } } });
    const text = await support('reporter', {}, [{ name: 'fake.png', data: TEXT }]);
    expect(text.status).toBe(415);
    expect(text.json).toMatchObject({ error: { details: { field: 'upload_files' } } });
    const noMessage = await support('reporter', { message: '  ' });
    expect(noMessage.status).toBe(400);
    expect(noMessage.text).toContain('message');
    const badEmail = await support('reporter', { email: 'nope' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.text).toContain('email');
    expect(await supportCount()).toBe(before);
  });

  it('refuses a file over the size limit and too many files (413)', async () => {
    const before = await supportCount();
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_SUPPORT_FILE_BYTES)]);
    const tooLarge = await support('otherRadiologist', {}, [{ name: 'big.png', data: big }]);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json).toMatchObject({ error: { details: { field: 'upload_files' } } });
    const many = Array.from({ length: MAX_SUPPORT_FILES + 1 }, (_, i) => ({ name: `s${i}.png`, data: PNG }));
    const tooMany = await support('otherRadiologist', {}, many);
    expect(tooMany.status).toBe(413);
    expect(tooMany.text).toContain('upload_files');
    expect(await supportCount()).toBe(before);
  });

  it('limits each user to 5 support mails in 10 minutes (429), others are not affected', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await support('facilityAdmin', { message: `#${i}` })).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    expect((await support('referrer')).status).toBe(202);
  });

  it('needs a signed-in user (401)', async () => {
    const response = await fetch(`${server.url}/api/v1/comm/email/send-support`, { method: 'POST' });
    expect(response.status).toBe(401);
  });
});
