import type { TReport } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { reports } from '../db/schema/index.ts';
import { buildFacility, buildStudy, buildUser } from '../test/factories.ts';
import { startReplicas, type TReplicaSet } from '../test/realtime-replicas.ts';
import {
  acknowledged,
  appendParagraph,
  openEditor,
  typeAtStart,
  until,
  type TEditor,
} from './collab-test-client.ts';
import { flushReportDocument } from './flush-report-document.ts';

// Two replicas on one database and one Redis (REDIS_URL): a report open on both is one document.
let set: TReplicaSet;
const editors: TEditor[] = [];

beforeAll(async () => {
  // Stores run only when a test asks (flushReportDocument), or when a document's last editor leaves.
  set = await startReplicas(2, {
    env: { COLLAB_STORE_DEBOUNCE_MS: '60000', COLLAB_STORE_MAX_DEBOUNCE_MS: '60000' },
  });
});

afterAll(async () => {
  for (const editor of editors) editor.close();
  await set.close();
});

function replicaAt(index: number) {
  const replica = set.replicas[index];
  if (!replica) throw new Error(`no replica ${index}`);
  return replica;
}

const urlOf = (index: number): string => replicaAt(index).url;

async function stored(reportId: string) {
  const [row] = await set.database.db.select().from(reports).where(eq(reports.id, reportId));
  if (!row) throw new Error('no report');
  return row;
}

async function reportWithEditors() {
  const db = set.database.db;
  const facility = await buildFacility(db);
  const radiologist = await buildUser(db, { facilities: [facility] });
  const transcriptionist = await buildUser(db, { role: 'TRANSCRIPTIONIST', facilities: [facility] });
  const study = await buildStudy(db, {
    facility,
    status: 'ASSIGNED',
    lastAssignedUserId: radiologist.id,
    collaborationEnabled: true,
  });
  const [report] = await db
    .insert(reports)
    .values({
      studyId: study.id,
      organisationId: facility.organisationId,
      content: '<p>Findings: normal.</p>',
    })
    .returning();
  if (!report) throw new Error('no report');
  return { report, radiologist, transcriptionist };
}

async function open(index: number, reportId: string, token: string): Promise<TEditor> {
  const editor = await openEditor(urlOf(index), reportId, token);
  editors.push(editor);
  return editor;
}

describe('collaboration across replicas (Redis)', () => {
  it('editors connected to different replicas converge', async () => {
    const { report, radiologist, transcriptionist } = await reportWithEditors();
    const first = await open(0, report.id, await set.tokenFor(radiologist));
    const second = await open(1, report.id, await set.tokenFor(transcriptionist));
    appendParagraph(first.document, 'From replica one.');
    typeAtStart(second.document, 'From replica two. ');
    const expected = '<p>From replica two. Findings: normal.</p><p>From replica one.</p>';
    await until(first.document, () => first.html() === expected);
    await until(second.document, () => second.html() === expected);
    await acknowledged(first);
    await acknowledged(second);
  });

  it('a REST write on one replica reaches editors on both, once', async () => {
    const { report, radiologist, transcriptionist } = await reportWithEditors();
    const token = await set.tokenFor(radiologist);
    const onFirst = await open(0, report.id, token);
    const onSecond = await open(1, report.id, await set.tokenFor(transcriptionist));
    const response = await fetch(`${urlOf(1)}/api/v1/worklist/report/${report.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        content: '<p>Rewritten.</p>',
        version: report.version,
        by_user_id: radiologist.id,
      }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as TReport).version).toBe(report.version + 1);
    await until(onFirst.document, () => onFirst.html() === '<p>Rewritten.</p>');
    await until(onSecond.document, () => onSecond.html() === '<p>Rewritten.</p>');
    // Both stay at one copy after more editing (a second push would have added another).
    appendParagraph(onSecond.document, 'More.');
    await until(onFirst.document, () => onFirst.html() === '<p>Rewritten.</p><p>More.</p>');
  });

  it('a REST write on a replica without the document reaches the editor on the other', async () => {
    const { report, radiologist } = await reportWithEditors();
    const token = await set.tokenFor(radiologist);
    const editor = await open(1, report.id, token);
    const response = await fetch(`${urlOf(0)}/api/v1/worklist/report/${report.id}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        content: '<p>Written elsewhere.</p>',
        version: report.version,
        by_user_id: radiologist.id,
      }),
    });
    expect(response.status).toBe(200);
    await until(editor.document, () => editor.html() === '<p>Written elsewhere.</p>');
  });

  it('stores on both replicas lose nothing typed between them', async () => {
    const { report, radiologist, transcriptionist } = await reportWithEditors();
    const first = await open(0, report.id, await set.tokenFor(radiologist));
    const second = await open(1, report.id, await set.tokenFor(transcriptionist));
    appendParagraph(first.document, 'From replica one.');
    appendParagraph(second.document, 'From replica two.');
    await until(first.document, () => first.html().includes('From replica two.'));
    await until(second.document, () => second.html().includes('From replica one.'));
    await acknowledged(first);
    await acknowledged(second);
    await flushReportDocument(replicaAt(0).app, { reportId: report.id });
    expect((await stored(report.id)).version).toBe(report.version + 1);

    // Typed on the second replica after the first one stored; then the second one stores.
    appendParagraph(second.document, 'Typed after the first store.');
    await acknowledged(second);
    await flushReportDocument(replicaAt(1).app, { reportId: report.id });

    const row = await stored(report.id);
    for (const text of ['From replica one.', 'From replica two.', 'Typed after the first store.']) {
      expect(row.content).toContain(text);
    }
    expect(row.version).toBe(report.version + 2);
    await until(first.document, () => first.html().includes('Typed after the first store.'));
    expect(second.html()).toBe(row.content);
    expect(first.html()).toBe(row.content);
  });

  it('an access change on one replica reaches the connections on the other', async () => {
    const { report, radiologist, transcriptionist } = await reportWithEditors();
    const editor = await open(1, report.id, await set.tokenFor(transcriptionist));
    expect(editor.scope).toBe('read-write');
    const reauthenticated = new Promise<string>((resolve) =>
      editor.provider.on('authenticated', ({ scope }: { scope: string }) => resolve(scope)),
    );
    const response = await fetch(`${urlOf(0)}/api/v1/worklist/${report.studyId}`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${await set.tokenFor(radiologist)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ collaboration_enabled: false, by_user_id: radiologist.id }),
    });
    expect(response.status).toBe(200);
    expect(await reauthenticated).toBe('readonly');
  });
});
