import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import { FAST_JOBS_ENV, messagesOf, shareAs, untilState } from '../../test/comm-test-helpers.ts';
import { buildReportWorld, type TWorld } from '../../test/report-test-world.ts';
import {
  closedPort,
  mimeAttachments,
  mimeHeader,
  startSmtpCapture,
  type TSmtpCapture,
} from '../../test/smtp-capture.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { RENDER_MAX_ATTEMPTS } from './delivery-jobs.ts';

let port: number;
let smtp: TSmtpCapture | null = null;
let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  port = await closedPort();
  server = await startTestServer({
    env: { SMTP_URL: `smtp://127.0.0.1:${port}`, SUPPORT_EMAIL: 'help@ris.example.org', ...FAST_JOBS_ENV },
  });
  w = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
  await smtp?.close();
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

const jobOf = async (messageId: string) => {
  const [row] = await server.db
    .select({ attempts: t.jobs.attempts, status: t.jobs.status, lastError: t.jobs.lastError })
    .from(t.outboundMessages)
    .innerJoin(t.jobs, eq(t.jobs.id, t.outboundMessages.jobId))
    .where(eq(t.outboundMessages.id, messageId));
  return row;
};

// While the SMTP server is still down (these run first).
describe('failures that retries cannot fix', () => {
  it('a report that fails to render stops after RENDER_MAX_ATTEMPTS; the sender never reads internals', async () => {
    const { studyId } = await w.studyWithReport({ status: 'FINAL' });
    // The signer's signature points at bytes the blob store refuses to read (not a "missing" file).
    const [file] = await server.db
      .insert(t.storedFiles)
      .values({
        organisationId: w.organisationId,
        storageKey: '../internal/secret-path',
        sha256: '0'.repeat(64),
        sizeBytes: 1,
        mediaType: 'image/png',
      })
      .returning();
    const radiologist = w.users.radiologist.id;
    await server.db
      .update(t.users)
      .set({ signatureFileId: file?.id ?? null })
      .where(eq(t.users.id, radiologist));
    try {
      const response = await shareAs(server, w, 'admin', 'email', {
        worklist_id: studyId,
        emails: ['render@clinic.test'],
      });
      expect(response.status).toBe(202);
      const id = messagesOf(response)[0]?.id ?? '';
      const failed = await untilState(w, studyId, id, ['failed']);
      expect(failed.error).toBe('The report could not be prepared');
      expect(failed.attempts).toBe(RENDER_MAX_ATTEMPTS);
      const job = await jobOf(id);
      expect(job).toMatchObject({ status: 'failed', attempts: RENDER_MAX_ATTEMPTS });
      expect(job?.lastError).toContain('secret-path');
      const [row] = await server.db.select().from(t.outboundMessages).where(eq(t.outboundMessages.id, id));
      expect(row?.error).not.toContain('secret-path');
    } finally {
      await server.db.update(t.users).set({ signatureFileId: null }).where(eq(t.users.id, radiologist));
    }
  });

  it('a support attachment gone from file storage fails the mail at once, not after 40 attempts', async () => {
    const form = new FormData();
    form.append('user_id', w.users.transcriptionist.id);
    form.append('user_name', 'Tia');
    form.append('email', 'tia@clinic.test');
    form.append('message', 'Attachment will vanish');
    form.append('upload_files', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'vanishing.png');
    const response = await fetch(`${server.url}/api/v1/comm/email/send-support`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.token('transcriptionist')}` },
      body: form,
    });
    expect(response.status).toBe(202);
    const { id } = (await response.json()) as { id: string };
    // The first attempt reads the file and meets the closed SMTP port; then the bytes disappear.
    await expect
      .poll(async () => (await jobOf(id))?.attempts ?? 0, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(1);
    const [message] = await server.db.select().from(t.outboundMessages).where(eq(t.outboundMessages.id, id));
    const [file] = await server.db
      .select()
      .from(t.storedFiles)
      .where(eq(t.storedFiles.id, message?.attachments[0]?.file_id ?? ''));
    if (!file) throw new Error('no stored attachment');
    await server.app.deps.blobs.delete(file.storageKey);
    await expect.poll(async () => (await jobOf(id))?.status, { timeout: 15_000 }).toBe('failed');
    const job = await jobOf(id);
    expect(job?.attempts).toBeLessThan(10);
    const [row] = await server.db.select().from(t.outboundMessages).where(eq(t.outboundMessages.id, id));
    expect(row).toMatchObject({ status: 'REJECTED', error: 'The attachment vanishing.png no longer exists' });
  });
});

describe('delivery survives an SMTP outage', () => {
  it('retries while the server is down, then delivers once when it is up', async () => {
    const { studyId } = await w.studyWithReport({ status: 'FINAL' });
    const response = await shareAs(server, w, 'admin', 'email', {
      worklist_id: studyId,
      emails: ['outage@clinic.test'],
    });
    expect(response.status).toBe(202);
    const [message] = messagesOf(response);
    const id = message?.id ?? '';

    // Down: the job fails and is retried; the sender sees it pending with the reason.
    await expect
      .poll(async () => (await jobOf(id))?.attempts ?? 0, { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    const pending = await untilState(w, studyId, id, ['pending']);
    // The sender reads a fixed sentence; the connection error (host, port) stays in the job.
    expect(pending.error).toBe('Sending failed; it will be retried');
    expect((await jobOf(id))?.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect((await jobOf(id))?.status).not.toBe('failed');

    // Up on the same port: the next attempt delivers, exactly one mail.
    smtp = await startSmtpCapture({ port });
    const sent = await untilState(w, studyId, id, ['sent', 'failed']);
    expect(sent).toMatchObject({ state: 'sent', error: null });
    // At least one attempt failed before it (a claimed attempt still connecting when the server comes
    // back may be the one that delivers, so the count is 2 or more, not 3).
    expect(sent.attempts).toBeGreaterThanOrEqual(2);
    expect((await jobOf(id))?.status).toBe('succeeded');
    expect(smtp.received.filter((mail) => mail.to.includes('outage@clinic.test'))).toHaveLength(1);
  });

  it('sends the support form to SUPPORT_EMAIL with reply-to and the uploads attached', async () => {
    smtp ??= await startSmtpCapture({ port });
    const form = new FormData();
    form.append('user_id', w.users.radiologist.id);
    form.append('user_name', 'Dr Rao');
    form.append('email', 'rao@clinic.test');
    form.append('message', 'The PDF preview is blank for one study.');
    form.append('upload_files', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'screen.png');
    form.append('upload_files', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), 'report.pdf');
    const response = await fetch(`${server.url}/api/v1/comm/email/send-support`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.token('radiologist')}` },
      body: form,
    });
    expect(response.status).toBe(202);
    const body = (await response.json()) as { id: string; state: string };
    expect(body.state).toBe('pending');
    await expect
      .poll(() => smtp?.received.filter((mail) => mail.to.includes('help@ris.example.org')).length, {
        timeout: 15_000,
      })
      .toBe(1);
    const mail = smtp.received.find((m) => m.to.includes('help@ris.example.org'));
    if (!mail) throw new Error('no support mail');
    expect(mimeHeader(mail.raw, 'Reply-To')).toBe('rao@clinic.test');
    expect(mimeHeader(mail.raw, 'Subject')).toBe('Support request from Dr Rao');
    expect(mail.decoded).toContain('The PDF preview is blank for one study.');
    const attachments = mimeAttachments(mail.raw);
    expect(attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['screen.png', 'image/png'],
      ['report.pdf', 'application/pdf'],
    ]);
    expect(attachments[0]?.data.equals(PNG)).toBe(true);
    await expect
      .poll(async () => {
        const [row] = await server.db
          .select({ status: t.outboundMessages.status })
          .from(t.outboundMessages)
          .where(eq(t.outboundMessages.id, body.id));
        return row?.status;
      })
      .toBe('FULFILLED');
  });
});
