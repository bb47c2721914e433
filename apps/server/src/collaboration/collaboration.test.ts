import { reportDocumentName } from '@ris/editor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disableUser } from '../auth/disable-user.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../test/report-test-world.ts';
import { tokenFor } from '../test/auth-helpers.ts';
import { buildUser } from '../test/factories.ts';
import { connectSocket } from '../test/realtime-client.ts';
import { startTestServer, type TTestServer } from '../test/test-server.ts';
import {
  acknowledged,
  appendParagraph,
  awarenessSeen,
  connectionClosed,
  openEditor,
  refusedReason,
  typeAtStart,
  until,
  type TEditor,
} from './collab-test-client.ts';
import { documentToHtml } from './report-document.ts';

// Real server, real providers over WebSockets at /collab: who may edit, who only reads, who is refused.
let server: TTestServer;
let world: TWorld;
const editors: TEditor[] = [];

beforeAll(async () => {
  server = await startTestServer();
  world = await buildReportWorld(server);
});

afterAll(async () => {
  for (const editor of editors) editor.close();
  await server.close();
});

async function open(user: TWorldUser, reportId: string): Promise<TEditor> {
  const editor = await openEditor(server.url, reportId, world.token(user));
  editors.push(editor);
  return editor;
}

/** The report's document as the server holds it now. */
function serverHtml(reportId: string): string {
  const document = server.app.collaboration.documents.get(reportDocumentName(reportId));
  if (!document) throw new Error('the document is not open on the server');
  return documentToHtml(document, reportId);
}

/** Lets a read-only editor change its copy, and returns once the server has handled that change. */
async function attemptChange(reader: TEditor, witness: TEditor, text: string): Promise<void> {
  appendParagraph(reader.document, text);
  // Messages of one connection are handled in order: once the witness sees the reader's awareness
  // marker sent after the change, the server has already handled (and dropped) the change.
  reader.provider.setAwarenessField('marker', text);
  await awarenessSeen(witness, (state) => state.marker === text);
}

describe('collaborative editing at /collab', () => {
  it('two editors converge: the assigned radiologist and a transcriptionist with collaboration on', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const transcriptionist = await open('transcriptionist', report.id);
    expect([radiologist.scope, transcriptionist.scope]).toEqual(['read-write', 'read-write']);
    expect(radiologist.html()).toBe('<p>Findings: normal.</p>');

    appendParagraph(radiologist.document, 'Impression: no acute abnormality.');
    typeAtStart(transcriptionist.document, 'CT head. ');
    const expected = '<p>CT head. Findings: normal.</p><p>Impression: no acute abnormality.</p>';
    await until(radiologist.document, () => radiologist.html() === expected);
    await until(transcriptionist.document, () => transcriptionist.html() === expected);
    await acknowledged(radiologist);
    await acknowledged(transcriptionist);
    expect(serverHtml(report.id)).toBe(expected);
  });

  it('merges the changes of an editor that was offline when it reconnects', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const transcriptionist = await open('transcriptionist', report.id);
    const offline = connectionClosed(radiologist);
    radiologist.provider.disconnect();
    await offline;
    appendParagraph(radiologist.document, 'Typed offline.');
    appendParagraph(transcriptionist.document, 'Typed online.');
    await acknowledged(transcriptionist);
    await radiologist.provider.connect();
    await until(transcriptionist.document, () => transcriptionist.html().includes('Typed offline.'));
    await until(radiologist.document, () => radiologist.html().includes('Typed online.'));
    expect(radiologist.html()).toBe(transcriptionist.html());
    expect(radiologist.html()).toMatch(
      /^<p>Findings: normal\.<\/p><p>Typed o(ff|n)line\.<\/p><p>Typed o(ff|n)line\.<\/p>$/,
    );
  });

  it("shows each caret with the user's name as the server knows it, whatever the client claims", async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const radiologist = await open('radiologist', report.id);
    const transcriptionist = await open('transcriptionist', report.id);
    radiologist.provider.setAwarenessField('user', { name: 'Somebody Else', color: '#e11d48' });
    const seen = await awarenessSeen(transcriptionist, (state) => state.marker === undefined && !!state.user);
    expect(seen.user).toEqual({ name: 'Dr Rao', color: '#e11d48', id: world.users.radiologist.id });
  });

  it.each<[string, TWorldUser, boolean]>([
    ['a radiologist the study is not assigned to', 'otherRadiologist', false],
    ['a transcriptionist while collaboration is off', 'transcriptionist', false],
    ['a facility admin', 'facilityAdmin', false],
  ])('gives %s a read-only connection: updates arrive, its changes are dropped', async (_, who, collab) => {
    const { report } = await world.studyWithReport({ collaborationEnabled: collab });
    const editor = await open('radiologist', report.id);
    const reader = await open(who, report.id);
    expect(reader.scope).toBe('readonly');

    await attemptChange(reader, editor, 'Written by a reader');
    expect(serverHtml(report.id)).toBe('<p>Findings: normal.</p>');
    expect(editor.html()).toBe('<p>Findings: normal.</p>');

    appendParagraph(editor.document, 'Written by the editor');
    await until(reader.document, () => reader.html().includes('Written by the editor'));
    expect(serverHtml(report.id)).toBe('<p>Findings: normal.</p><p>Written by the editor</p>');
  });

  it('makes a final report read-only for everyone, the assigned radiologist and admins included', async () => {
    const { report } = await world.studyWithReport({ status: 'FINAL' });
    const radiologist = await open('radiologist', report.id);
    const admin = await open('admin', report.id);
    expect([radiologist.scope, admin.scope]).toEqual(['readonly', 'readonly']);
    await attemptChange(radiologist, admin, 'Changed after signing');
    expect(serverHtml(report.id)).toBe('<p>Findings: normal.</p>');
  });

  it('refuses who may not see the report, and bad or expired tokens', async () => {
    const { report } = await world.studyWithReport();
    const name = reportDocumentName(report.id);
    expect(await refusedReason(server.url, name, world.token('outsider'))).toBe('NOT_FOUND');
    // A referring physician reads a report only once it is final.
    expect(await refusedReason(server.url, name, world.token('referrer'))).toBe('NOT_FOUND');
    expect(await refusedReason(server.url, name, world.token('otherFacilityTranscriptionist'))).toBe(
      'NOT_FOUND',
    );
    expect(await refusedReason(server.url, name, 'not-a-token')).toBe('UNAUTHENTICATED');
    expect(await refusedReason(server.url, name, '')).toBe('UNAUTHENTICATED');

    const claims = server.identity.context.tokens.verify(world.token('radiologist'));
    const { iat: _iat, exp: _exp, iss: _iss, ...input } = claims;
    const expired = await server.identity.context.tokens.sign(input, Date.now() - 2 * 3600 * 1000);
    expect(await refusedReason(server.url, name, expired)).toBe('auth/id-token-expired');

    const unknown = reportDocumentName('00000000-0000-4000-8000-000000000000');
    expect(await refusedReason(server.url, unknown, world.token('admin'))).toBe('NOT_FOUND');
    expect(await refusedReason(server.url, 'report.x', world.token('admin'))).toBe('NOT_FOUND');
    expect(await refusedReason(server.url, `worklist.${report.id}`, world.token('admin'))).toBe('NOT_FOUND');
  });

  it('turns a transcriptionist read-only once collaboration is switched off (the provider reconnects)', async () => {
    const { studyId, report } = await world.studyWithReport({ collaborationEnabled: true });
    const transcriptionist = await open('transcriptionist', report.id);
    expect(transcriptionist.scope).toBe('read-write');
    const reauthenticated = new Promise<string>((resolve) =>
      transcriptionist.provider.on('authenticated', ({ scope }: { scope: string }) => resolve(scope)),
    );
    const off = await world.call('radiologist', 'PUT', `/worklist/${studyId}`, {
      collaboration_enabled: false,
      by_user_id: world.users.radiologist.id,
    });
    expect(off.status).toBe(200);
    expect(await reauthenticated).toBe('readonly');
  });

  it('leaves /ws/ to socket.io and ends WebSocket upgrades to any other path', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/nowhere`);
      socket.addEventListener('open', () => resolve('open'));
      socket.addEventListener('error', () => resolve('refused'));
    });
    expect(outcome).toBe('refused');
    const socket = await connectSocket(server.url, { auth: { token: world.token('radiologist') } });
    expect(socket.connected).toBe(true);
    socket.close();
  });

  it('ends the connection of a user who is disabled, and refuses their token afterwards', async () => {
    const { report } = await world.studyWithReport({ collaborationEnabled: true });
    const user = await buildUser(server.db, { role: 'TRANSCRIPTIONIST', facilities: [world.facility] });
    const token = await tokenFor(server, user);
    const editor = await openEditor(server.url, report.id, token);
    editors.push(editor);
    const refused = new Promise<string>((resolve) =>
      editor.provider.on('authenticationFailed', ({ reason }: { reason: string }) => resolve(reason)),
    );
    const closed = connectionClosed(editor);
    await disableUser(server.db, user.id, { actorUserId: null });
    await closed;
    expect(await refused).toBe('auth/id-token-revoked');
  });
});
