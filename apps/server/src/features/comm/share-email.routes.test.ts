import { MAX_REPORT_RECIPIENTS, type TOutboxPage } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import {
  deliveriesOf,
  FAST_JOBS_ENV,
  messagesOf,
  patientNameOf,
  shareAs,
  storedDeliveries,
  untilState,
} from '../../test/comm-test-helpers.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../test/report-test-world.ts';
import {
  decodeMimeWords,
  mimeAttachments,
  mimeHeader,
  startSmtpCapture,
  type TSmtpCapture,
} from '../../test/smtp-capture.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let smtp: TSmtpCapture;
let server: TTestServer;
let w: TWorld;
let finalStudyId: string;

beforeAll(async () => {
  smtp = await startSmtpCapture({ rejectRecipients: ['nobody@clinic.test'] });
  server = await startTestServer({
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'RIS <reports@ris.example.org>', ...FAST_JOBS_ENV },
  });
  w = await buildReportWorld(server);
  finalStudyId = (await w.studyWithReport({ status: 'FINAL' })).studyId;
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const mailsTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));
const share = (user: TWorldUser, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  shareAs(server, w, user, 'email', { worklist_id: finalStudyId, ...body }, headers);
const outboundCount = async () => (await server.db.select().from(t.outboundMessages)).length;

describe('POST /comm/email/send-report-pdf over SMTP', () => {
  it('sends the PDF to each distinct address, once, and the sender sees them sent', async () => {
    const response = await share('admin', {
      emails: ['dr.mehta@clinic.test', ' DR.MEHTA@clinic.test', 'ward7@hospital.test'],
      with_letterhead: true,
    });
    expect(response.status).toBe(202);
    const messages = messagesOf(response);
    expect(messages.map((m) => [m.recipient, m.channel, m.with_letterhead])).toEqual([
      ['dr.mehta@clinic.test', 'email', true],
      ['ward7@hospital.test', 'email', true],
    ]);
    expect(messages.every((m) => m.state === 'pending' && m.created_by === w.users.admin.id)).toBe(true);

    for (const message of messages) {
      const sent = await untilState(w, finalStudyId, message.id, ['sent', 'failed']);
      expect(sent).toMatchObject({ state: 'sent', error: null, attempts: 1 });
      expect(sent.sent_at).not.toBeNull();
    }
    const patient = await patientNameOf(w, finalStudyId);
    for (const [address, message] of [
      ['dr.mehta@clinic.test', messages[0]],
      ['ward7@hospital.test', messages[1]],
    ] as const) {
      const mails = mailsTo(address);
      expect(mails).toHaveLength(1);
      const mail = mails[0];
      if (!mail || !message) throw new Error('no mail');
      expect(mail.from).toBe('reports@ris.example.org');
      expect(decodeMimeWords(mimeHeader(mail.raw, 'Subject') ?? '')).toBe(`Radiology report — ${patient}`);
      expect(mimeHeader(mail.raw, 'Message-ID')).toBe(`<outbound-${message.id}@ris.example.org>`);
      const [attachment, ...others] = mimeAttachments(mail.raw);
      expect(others).toEqual([]);
      expect(attachment?.filename).toBe(`${patient}_report.pdf`);
      expect(attachment?.contentType).toBe('application/pdf');
      expect(attachment?.data.subarray(0, 5).toString()).toBe('%PDF-');
    }
    const [stored] = await server.db
      .select()
      .from(t.outboundMessages)
      .where(eq(t.outboundMessages.id, messages[0]?.id ?? ''));
    expect(stored).toMatchObject({ status: 'FULFILLED', kind: 'report', withLetterhead: true });
    expect(stored?.providerMessageId).toBe(`<outbound-${stored?.id}@ris.example.org>`);
    expect(stored?.subject).toBe(`Radiology report — ${patient}`);
  });

  it('an Idempotency-Key repeated by the same user yields the same message, sent once', async () => {
    const headers = { 'idempotency-key': 'share-dialog-1' };
    const first = await share('radiologist', { emails: ['once@clinic.test'] }, headers);
    const again = await share('radiologist', { emails: ['once@clinic.test'] }, headers);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    const [message] = messagesOf(first);
    expect(messagesOf(again).map((m) => m.id)).toEqual([message?.id]);
    await untilState(w, finalStudyId, message?.id ?? '', ['sent']);
    expect(mailsTo('once@clinic.test')).toHaveLength(1);
    // The same key from another user is another message.
    const other = await share('transcriptionist', { emails: ['once@clinic.test'] }, headers);
    expect(messagesOf(other)[0]?.id).not.toBe(message?.id);
    await untilState(w, finalStudyId, messagesOf(other)[0]?.id ?? '', ['sent']);
    expect(mailsTo('once@clinic.test')).toHaveLength(2);
  });

  it('a recipient the SMTP server refuses (550) fails at once with the reason', async () => {
    const response = await share('admin', { emails: ['nobody@clinic.test'] });
    const [message] = messagesOf(response);
    const failed = await untilState(w, finalStudyId, message?.id ?? '', ['failed', 'sent']);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed.error).toMatch(/550|No such user/);
  });
});

describe('who may share, and what is refused', () => {
  it.each<TWorldUser>(['facilityAdmin', 'radiologist', 'reporter', 'transcriptionist', 'referrer'])(
    '%s may share a final report of their facility (or that they referred)',
    async (user) => {
      const response = await share(user, { emails: [`${user.toLowerCase()}@copy.test`] });
      expect(response.status).toBe(202);
      expect(messagesOf(response)[0]?.created_by).toBe(w.users[user].id);
    },
  );

  it('a transcriptionist of another facility and another organisation get 404; nothing is stored', async () => {
    const before = await outboundCount();
    const other = await share('otherFacilityTranscriptionist', { emails: ['x@copy.test'] });
    expect(other.status).toBe(404);
    const outsider = await share('outsider', { emails: ['x@copy.test'] });
    expect(outsider.status).toBe(404);
    expect(await outboundCount()).toBe(before);
  });

  it('a report that is not final answers 409, and a referrer does not see it at all (404)', async () => {
    const { studyId } = await w.studyWithReport({ status: 'DRAFTED' });
    const before = await outboundCount();
    const response = await shareAs(server, w, 'admin', 'email', {
      worklist_id: studyId,
      emails: ['a@b.test'],
    });
    expect(response.status).toBe(409);
    expect(response.json).toMatchObject({ error: { message: 'Only a final report can be shared' } });
    const noReport = await w.study({ status: 'TO_READ', assignee: null });
    expect(
      (await shareAs(server, w, 'admin', 'email', { worklist_id: noReport.id, emails: ['a@b.test'] })).status,
    ).toBe(409);
    const referrer = await shareAs(server, w, 'referrer', 'email', {
      worklist_id: studyId,
      emails: ['a@b.test'],
    });
    expect(referrer.status).toBe(404);
    expect(await outboundCount()).toBe(before);
  });

  it('by_user_id must be the caller (403), nothing stored', async () => {
    const before = await outboundCount();
    const response = await share('radiologist', { emails: ['a@b.test'], by_user_id: w.users.admin.id });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ error: { details: { field: 'by_user_id' } } });
    expect(await outboundCount()).toBe(before);
  });

  it('names the bad address, too many recipients and a missing worklist_id (400)', async () => {
    const bad = await share('admin', { emails: ['ok@clinic.test', 'not-an-address'] });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { details: { fields: [{ field: 'emails.1' }] } } });
    const many = Array.from({ length: MAX_REPORT_RECIPIENTS + 1 }, (_, i) => `r${i}@clinic.test`);
    const tooMany = await share('admin', { emails: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toContain('emails');
    const none = await share('admin', { emails: [] });
    expect(none.status).toBe(400);
    const missing = await shareAs(server, w, 'admin', 'email', { emails: ['a@b.test'] });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('worklist_id');
  });
});

describe('GET /comm/messages and GET /comm/outbox', () => {
  it('lists the shares of a study newest first, with states; a referrer sees only their own', async () => {
    await expect
      .poll(
        async () => (await deliveriesOf(w, 'admin', finalStudyId)).some((item) => item.state === 'pending'),
        {
          timeout: 15_000,
        },
      )
      .toBe(false);
    const items = await deliveriesOf(w, 'radiologist', finalStudyId);
    expect(items.length).toBeGreaterThan(3);
    const times = items.map((item) => item.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set(items.map((item) => item.state))).toEqual(new Set(['sent', 'failed']));
    expect(items.find((item) => item.state === 'failed')?.error).toBeTruthy();
    const own = await deliveriesOf(w, 'referrer', finalStudyId);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((item) => item.created_by === w.users.referrer.id)).toBe(true);
    expect((await w.call('outsider', 'GET', `/comm/messages?worklist_id=${finalStudyId}`)).status).toBe(404);
    expect(
      (await w.call('otherFacilityTranscriptionist', 'GET', `/comm/messages?worklist_id=${finalStudyId}`))
        .status,
    ).toBe(404);
  });

  it('the outbox is for administrators of the organisation only', async () => {
    const page = await w.call('admin', 'GET', '/comm/outbox?limit=5');
    expect(page.status).toBe(200);
    const body = page.json as TOutboxPage;
    expect(body.items).toHaveLength(5);
    expect(body.total).toBe(await outboundCount());
    const patient = await patientNameOf(w, finalStudyId);
    expect(body.items[0]).toMatchObject({
      subject: `Radiology report — ${patient}`,
      attachment_name: `${patient}_report.pdf`,
    });
    expect(body.items[0]?.body).toContain(patient);
    for (const user of ['facilityAdmin', 'radiologist', 'transcriptionist', 'referrer'] as const) {
      expect((await w.call(user, 'GET', '/comm/outbox')).status).toBe(403);
    }
    const elsewhere = await w.call('outsider', 'GET', '/comm/outbox');
    expect((elsewhere.json as TOutboxPage).items).toEqual([]);
  });

  it('keeps WhatsApp shares in the outbox when WhatsApp is not configured (no job)', async () => {
    const response = await shareAs(server, w, 'admin', 'whatsapp', {
      worklist_id: finalStudyId,
      mobile_numbers: ['+919876543210'],
    });
    expect(response.status).toBe(202);
    const [message] = messagesOf(response);
    expect(message).toMatchObject({ state: 'outbox', channel: 'whatsapp', recipient: '+919876543210' });
    const [stored] = (await storedDeliveries(w, finalStudyId)).filter((row) => row.id === message?.id);
    expect(stored?.jobId).toBeNull();
  });
});
