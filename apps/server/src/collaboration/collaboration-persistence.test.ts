import path from 'node:path';
import { notificationTopic, worklistItemTopic, type TRealtimeMessage, type TReport } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { reports, reportVersions } from '../db/schema/index.ts';
import type { TDomainEventMap } from '../events/domain-events.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../test/report-test-world.ts';
import { LocalDiskBlobStore } from '../files/local-disk-store.ts';
import { connectSocket, listenTopic, MessageLog, notificationWithId } from '../test/realtime-client.ts';
import type { TTestSocket } from '../test/realtime-client.ts';
import { emitMarker } from '../test/realtime-fixtures.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import {
  acknowledged,
  appendParagraph,
  openEditor,
  typeAtStart,
  until,
  type TEditor,
} from './collab-test-client.ts';
import { insertReportContent } from './insert-report-content.ts';

// Stores in PostgreSQL (and PGlite), a restart on the same database, REST writes into open editors,
// and content inserted at the editors' carets over socket.io.
const STORE_DEBOUNCE_MS = '150';
let server: TTestServer;
let world: TWorld;
let restarted: FastifyInstance | null = null;
const editors: TEditor[] = [];
const sockets: TTestSocket[] = [];
const changes: TDomainEventMap['report.content.changed'][] = [];

beforeAll(async () => {
  server = await startTestServer({ env: { COLLAB_STORE_DEBOUNCE_MS: STORE_DEBOUNCE_MS } });
  world = await buildReportWorld(server);
  server.app.events.on('report.content.changed', (event) => changes.push(event));
});

afterAll(async () => {
  for (const editor of editors) editor.close();
  for (const socket of sockets) socket.close();
  await restarted?.close();
  await server.close();
});

async function open(user: TWorldUser, reportId: string, url = server.url): Promise<TEditor> {
  const editor = await openEditor(url, reportId, world.token(user));
  editors.push(editor);
  return editor;
}

async function stored(reportId: string) {
  const [row] = await server.db.select().from(reports).where(eq(reports.id, reportId));
  if (!row) throw new Error('no report');
  return row;
}

/** Waits until the report's row satisfies the condition (PostgreSQL is polled; no fixed sleep). */
async function storedWhen(reportId: string, condition: (row: Awaited<ReturnType<typeof stored>>) => boolean) {
  await expect.poll(async () => condition(await stored(reportId)), { timeout: 10_000 }).toBe(true);
  return stored(reportId);
}

/** A second server on the same database and data directory (the first one stopped). */
async function restart(env: Record<string, string>): Promise<{ url: string; app: FastifyInstance }> {
  await server.app.close();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: server.dataDir,
    WEB_DIST_DIR: path.join(server.dataDir, 'web'),
    ...env,
  });
  const app = await buildApp({
    config,
    database: server.database,
    blobs: new LocalDiskBlobStore(path.join(server.dataDir, 'files')),
  });
  restarted = app;
  return { url: await app.listen({ host: '127.0.0.1', port: 0 }), app };
}

describe('collaboration persistence', () => {
  it('stores HTML, version, a saved version and the Yjs state shortly after the last change', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const transcriptionist = await open('transcriptionist', report.id);
    appendParagraph(radiologist.document, 'Impression: normal study.');
    await until(transcriptionist.document, () => transcriptionist.html().includes('Impression'));
    typeAtStart(transcriptionist.document, 'MRI brain. ');
    await acknowledged(transcriptionist);

    const expected = '<p>MRI brain. Findings: normal.</p><p>Impression: normal study.</p>';
    const row = await storedWhen(report.id, (current) => current.content === expected);
    expect(row.version).toBeGreaterThan(report.version);
    expect(row.ydocState).not.toBeNull();
    // The last editor is who updated it.
    expect(row.updatedBy).toBe(world.users.transcriptionist.id);
    const [saved] = await server.db
      .select()
      .from(reportVersions)
      .where(and(eq(reportVersions.reportId, report.id), eq(reportVersions.version, row.version)));
    expect(saved?.content).toBe(expected);
    expect(changes).toContainEqual(
      expect.objectContaining({
        reportId: report.id,
        version: row.version,
        html: expected,
        source: 'collaboration',
      }),
    );

    const served = await world.call('admin', 'GET', `/worklist/${row.studyId}/report`);
    expect(served.json).toMatchObject({ id: report.id, content: expected, version: row.version });
  });

  it('a REST write reaches the open editors, and their next store builds on it', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const transcriptionist = await open('transcriptionist', report.id);
    const put = await world.call('admin', 'PUT', `/worklist/report/${report.id}`, {
      content: '<p>Rewritten by the <strong>admin</strong>.</p>',
      version: report.version,
      by_user_id: world.users.admin.id,
    });
    expect(put.status).toBe(200);
    const written = put.json as TReport;
    const rewritten = '<p>Rewritten by the <strong>admin</strong>.</p>';
    await until(radiologist.document, () => radiologist.html() === rewritten);
    await until(transcriptionist.document, () => transcriptionist.html() === rewritten);
    // Pushing the write in makes no version of its own: the REST client's version stays current.
    const afterPush = await storedWhen(report.id, (row) => row.ydocState !== null);
    expect(afterPush.version).toBe(written.version);

    appendParagraph(radiologist.document, 'Added afterwards.');
    await acknowledged(radiologist);
    const row = await storedWhen(report.id, (current) => current.content.includes('Added afterwards.'));
    expect(row.content).toBe(`${rewritten}<p>Added afterwards.</p>`);
    expect(row.version).toBe(written.version + 1);
  });

  it('sends inserted content (sanitised) to the editors listening on the item, not to readers', async () => {
    const { studyId, report } = await world.studyWithReport();
    const listen = async (user: TWorldUser) => {
      const socket = await connectSocket(server.url, { auth: { token: world.token(user) } });
      sockets.push(socket);
      const log = new MessageLog(socket);
      expect(await listenTopic(socket, worklistItemTopic(studyId))).toMatchObject({ ok: true });
      expect(await listenTopic(socket, notificationTopic(world.users[user].id))).toMatchObject({ ok: true });
      return log;
    };
    const editor = await listen('radiologist');
    const reader = await listen('otherRadiologist');

    await insertReportContent(server.db, server.app.events, {
      reportId: report.id,
      content: '<p>Dictated <em>text</em><script>alert(1)</script><img src="x" onerror="alert(1)"></p>',
    });
    const inserted: TRealtimeMessage = await editor.next(
      (message) => message.type === 'insert-report-content',
    );
    expect(inserted).toEqual({
      type: 'insert-report-content',
      data: { report_id: report.id, content: '<p>Dictated <em>text</em></p>' },
    });

    const marker = emitMarker(server.app.events, world.organisationId, world.users.otherRadiologist.id);
    await reader.next(notificationWithId(marker));
    expect(reader.before(notificationWithId(marker)).map((message) => message.type)).not.toContain(
      'insert-report-content',
    );
  });

  it('a restart loses nothing that was stored, and the last editor leaving stores at once', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    appendParagraph(radiologist.document, 'Stored before the restart.');
    await acknowledged(radiologist);
    const before = await storedWhen(report.id, (row) => row.content.includes('Stored before the restart.'));

    // A debounce far longer than the test: only the last editor leaving can store now.
    const second = await restart({
      COLLAB_STORE_DEBOUNCE_MS: '60000',
      COLLAB_STORE_MAX_DEBOUNCE_MS: '60000',
    });
    const reopened = await open('radiologist', report.id, second.url);
    expect(reopened.html()).toBe(before.content);

    appendParagraph(reopened.document, 'Written after the restart.');
    await acknowledged(reopened);
    reopened.close();
    const after = await storedWhen(report.id, (row) => row.content.includes('Written after the restart.'));
    expect(after.content).toBe(`${before.content}<p>Written after the restart.</p>`);
    expect(after.version).toBe(before.version + 1);
  });
});
