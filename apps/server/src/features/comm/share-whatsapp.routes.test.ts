import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import {
  FAST_JOBS_ENV,
  messagesOf,
  patientNameOf,
  shareAs,
  untilState,
} from '../../test/comm-test-helpers.ts';
import {
  startFakeWhatsappGraph,
  type TFakeWhatsappGraph,
  type TGraphCall,
} from '../../test/fake-whatsapp-graph.ts';
import { buildReportWorld, type TWorld } from '../../test/report-test-world.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';

let graph: TFakeWhatsappGraph;
let server: TTestServer;
let w: TWorld;
let studyId: string;

beforeAll(async () => {
  graph = await startFakeWhatsappGraph();
  server = await startTestServer({ env: { ...graph.env, ...FAST_JOBS_ENV } });
  w = await buildReportWorld(server);
  studyId = (await w.studyWithReport({ status: 'FINAL' })).studyId;
});
afterAll(async () => {
  await server.close();
  await graph.close();
});

const send = (numbers: string[]) =>
  shareAs(server, w, 'radiologist', 'whatsapp', { worklist_id: studyId, mobile_numbers: numbers });
type TMediaCall = Extract<TGraphCall, { endpoint: 'media' }>;
type TMessagesCall = Extract<TGraphCall, { endpoint: 'messages' }>;
const callsTo = (digits: string) =>
  graph.calls.filter(
    (call): call is TMessagesCall =>
      call.endpoint === 'messages' && (call.body as { to?: string }).to === digits,
  );
const uploadsFor = (mediaIds: (string | undefined)[]) =>
  graph.calls.filter(
    (call): call is TMediaCall => call.endpoint === 'media' && mediaIds.includes(call.mediaId ?? ''),
  );

describe('POST /comm/whatsapp/send-report-pdf through the Cloud API', () => {
  it('uploads the PDF once as media and sends a document message to the digits of the number', async () => {
    const response = await send(['+919876543210']);
    expect(response.status).toBe(202);
    const [message] = messagesOf(response);
    expect(message).toMatchObject({ channel: 'whatsapp', recipient: '+919876543210', state: 'pending' });
    const sent = await untilState(w, studyId, message?.id ?? '', ['sent', 'failed']);
    expect(sent).toMatchObject({ state: 'sent', attempts: 1, error: null });

    const [call, ...more] = callsTo('919876543210');
    expect(more).toEqual([]);
    const patient = await patientNameOf(w, studyId);
    const body = call?.body as { document: { id: string; filename: string; caption: string } };
    expect(call?.body).toMatchObject({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '919876543210',
      type: 'document',
      document: { filename: `${patient}_report.pdf`, caption: `Radiology report — ${patient}` },
    });
    const uploads = uploadsFor([body.document.id]);
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.fields).toMatchObject({ messaging_product: 'whatsapp', type: 'application/pdf' });
    expect(uploads[0]?.file?.filename).toBe(`${patient}_report.pdf`);
    expect(uploads[0]?.file?.data.subarray(0, 5).toString()).toBe('%PDF-');
    const [stored] = await server.db
      .select()
      .from(t.outboundMessages)
      .where(eq(t.outboundMessages.id, message?.id ?? ''));
    expect(stored?.providerMessageId).toBe(call?.messageId);
  });

  it('fails at once with the provider’s reason when WhatsApp refuses the number (131026)', async () => {
    graph.failNext(1, {
      endpoint: 'messages',
      status: 400,
      error: { message: 'Message undeliverable', type: 'OAuthException', code: 131026 },
    });
    const [message] = messagesOf(await send(['+919800000001']));
    const failed = await untilState(w, studyId, message?.id ?? '', ['failed', 'sent']);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed.error).toContain('Message undeliverable');
    expect(failed.error).toContain('131026');
    expect(callsTo('919800000001')).toHaveLength(1);
  });

  it('retries after a transient 500 without uploading again, and sends once', async () => {
    graph.failNext(1, {
      endpoint: 'messages',
      status: 500,
      error: { message: 'Something went wrong', type: 'OAuthException', code: 131000 },
    });
    const [message] = messagesOf(await send(['+447700900123']));
    const sent = await untilState(w, studyId, message?.id ?? '', ['sent', 'failed']);
    expect(sent).toMatchObject({ state: 'sent', attempts: 2, error: null });
    const calls = callsTo('447700900123');
    expect(calls.map((call) => call.messageId === null)).toEqual([true, false]);
    const mediaIds = calls.map((call) => (call.body as { document: { id: string } }).document.id);
    expect(new Set(mediaIds).size).toBe(1);
    expect(uploadsFor(mediaIds)).toHaveLength(1);
  });

  it('retries when the media upload is rate-limited (429), then sends', async () => {
    graph.failNext(2, {
      endpoint: 'media',
      status: 429,
      error: { message: '(#80007) Rate limit hit', type: 'OAuthException', code: 80007 },
    });
    const [message] = messagesOf(await send(['+61412345678']));
    const sent = await untilState(w, studyId, message?.id ?? '', ['sent', 'failed']);
    expect(sent).toMatchObject({ state: 'sent', attempts: 3 });
    expect(callsTo('61412345678')).toHaveLength(1);
  });

  it('names a number that is not E.164 (400) and stores nothing', async () => {
    const before = (await server.db.select().from(t.outboundMessages)).length;
    const response = await send(['9876543210']);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error: { details: { fields: [{ field: 'mobile_numbers.0' }] } } });
    const second = await send(['+919876543210', '+91 98765']);
    expect(second.text).toContain('mobile_numbers.1');
    expect((await server.db.select().from(t.outboundMessages)).length).toBe(before);
  });
});
