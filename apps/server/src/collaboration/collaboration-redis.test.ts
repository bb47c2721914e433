import type { TReport } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

// Two replicas on one database and one Redis (REDIS_URL): a report open on both is one document.
let set: TReplicaSet;
const editors: TEditor[] = [];

beforeAll(async () => {
  set = await startReplicas(2);
});

afterAll(async () => {
  for (const editor of editors) editor.close();
  await set.close();
});

function urlOf(index: number): string {
  const replica = set.replicas[index];
  if (!replica) throw new Error(`no replica ${index}`);
  return replica.url;
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
});
