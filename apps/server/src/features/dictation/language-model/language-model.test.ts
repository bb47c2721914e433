// The organisation language model end to end on the real server: saving a template or a macro
// enqueues one debounced rebuild of that organisation's model (the job runs it in a worker), the
// model holds the new words, languageModelFor writes its files from the database, and another
// organisation's model is neither touched nor shown.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../../db/schema/index.ts';
import { tokenFor } from '../../../test/auth-helpers.ts';
import { FAST_JOBS_ENV } from '../../../test/comm-test-helpers.ts';
import { buildOrganisation, buildUser } from '../../../test/factories.ts';
import { startTestServer, type TTestServer } from '../../../test/test-server.ts';
import {
  enqueueLanguageModelBuild,
  LANGUAGE_MODEL_DEBOUNCE_MS,
  LANGUAGE_MODEL_QUEUE,
  languageModelDir,
  languageModelFor,
  languageModelInfo,
} from './language-model.ts';

let server: TTestServer;
let organisationId: string;
let otherOrganisationId: string;
let adminToken: string;
let radiologistId: string;
let radiologistToken: string;

type TJobRow = { id: string; status: string; run_at: string };

async function jobsOf(organisation: string): Promise<TJobRow[]> {
  const result = await server.db.execute(
    sql`select id, status, run_at from jobs where queue = ${LANGUAGE_MODEL_QUEUE}
      and payload->>'organisation_id' = ${organisation} order by created_at`,
  );
  return (result as unknown as { rows: TJobRow[] }).rows;
}

/** The waiting rebuild of the organisation: made due now (the debounce window is over) and run. */
async function runWaitingBuild(organisation: string): Promise<void> {
  let waiting: TJobRow | undefined;
  await expect
    .poll(async () => {
      waiting = (await jobsOf(organisation)).find((job) => job.status === 'pending');
      return waiting !== undefined;
    })
    .toBe(true);
  if (!waiting) throw new Error('no waiting build');
  await server.db.execute(sql`update jobs set run_at = now() where id = ${waiting.id}`);
  server.app.jobs?.wake();
  const id = waiting.id;
  await expect
    .poll(async () => (await jobsOf(organisation)).find((job) => job.id === id)?.status, { timeout: 30_000 })
    .toBe('succeeded');
}

async function modelText(organisation: string): Promise<{ arpa: string; dictionary: string }> {
  const [row] = await server.db
    .select({ arpa: t.speechLanguageModels.lmArpa, dictionary: t.speechLanguageModels.dictionary })
    .from(t.speechLanguageModels)
    .where(eq(t.speechLanguageModels.organisationId, organisation));
  return { arpa: row?.arpa ?? '', dictionary: row?.dictionary ?? '' };
}

/** The model's three-word sequences. */
function trigrams(arpa: string): string[] {
  const section = arpa.slice(arpa.indexOf('\\3-grams:'));
  return [...section.matchAll(/^-?[\d.]+ (\S+ \S+ \S+)$/gm)].map((match) => match[1] ?? '');
}

beforeAll(async () => {
  server = await startTestServer({ env: FAST_JOBS_ENV });
  const organisation = await buildOrganisation(server.db);
  organisationId = organisation.id;
  otherOrganisationId = (await buildOrganisation(server.db)).id;
  const admin = await buildUser(server.db, { role: 'ADMIN', organisationId });
  const radiologist = await buildUser(server.db, { role: 'RADIOLOGIST', organisationId });
  adminToken = await tokenFor(server, admin);
  radiologistId = radiologist.id;
  radiologistToken = await tokenFor(server, radiologist);
});

afterAll(async () => {
  await server.close();
});

describe('organisation language model', () => {
  it('has none before the first build; first use asks for one at once', async () => {
    expect(await languageModelInfo(server.db, otherOrganisationId)).toBeNull();
    expect(
      await languageModelFor(server.db, otherOrganisationId, languageModelDir(server.dataDir)),
    ).toBeNull();
    const [first] = await jobsOf(otherOrganisationId);
    expect(new Date(first?.run_at ?? 0).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('rebuilds after a template is saved (one debounced job for a burst), with the new words', async () => {
    const before = Date.now();
    for (const [name, content] of [
      ['CT pancreas', '<p>A 2.5 cm cholangiocarcinoma is not excluded.</p>'],
      ['CT aorta', '<p>No <strong>pseudoaneurysm</strong>. No dissection.</p>'],
    ]) {
      const response = await server.request('POST', '/api/v1/radiologist/template', {
        token: adminToken,
        body: { name, scope: 'ORGANISATION', content },
      });
      expect(response.status).toBe(201);
    }
    // The rebuild is asked for after the response (on the committed event): wait for it.
    let waiting: TJobRow[] = [];
    await expect
      .poll(async () => {
        waiting = (await jobsOf(organisationId)).filter((job) => job.status === 'pending');
        return waiting.length;
      })
      .toBeGreaterThan(0);
    expect(waiting).toHaveLength(1);
    expect(new Date(waiting[0]?.run_at ?? 0).getTime()).toBeGreaterThanOrEqual(
      before + LANGUAGE_MODEL_DEBOUNCE_MS - 1_000,
    );

    await runWaitingBuild(organisationId);
    const info = await languageModelInfo(server.db, organisationId);
    expect(info?.words).toBeGreaterThan(60);
    expect(info?.sentences).toBeGreaterThanOrEqual(3);
    const { arpa, dictionary } = await modelText(organisationId);
    expect(arpa).toMatch(/ cholangiocarcinoma[ \n]/);
    expect(arpa).toMatch(/ pseudoaneurysm[ \n]/);
    expect(trigrams(arpa)).toEqual(expect.arrayContaining(['two point five', 'point five centimetres']));
    expect(dictionary).toMatch(/^cholangiocarcinoma [A-Z]/m);
    // Templates' names are said after "insert template" ("CT" as letters).
    expect(trigrams(arpa)).toEqual(
      expect.arrayContaining(['insert template c', 'template c t', 'c t aorta']),
    );
  });

  it('makes one waiting job of saves made at the same moment (two tabs, two replicas)', async () => {
    const organisation = (await buildOrganisation(server.db)).id;
    const ids = await Promise.all(
      Array.from({ length: 6 }, () => enqueueLanguageModelBuild(server.db, organisation)),
    );
    expect(new Set(ids).size).toBe(1);
    expect(await jobsOf(organisation)).toHaveLength(1);
  });

  it('rebuilds after a macro is created, and its files are written from the database', async () => {
    const response = await server.request('POST', '/api/v1/radiologist/macro', {
      token: radiologistToken,
      body: { short_key: 'spondy', value: '<p>Spondylolisthesis at L4-5.</p>', user_fk: radiologistId },
    });
    expect(response.status).toBe(201);
    await runWaitingBuild(organisationId);
    const { arpa, dictionary } = await modelText(organisationId);
    expect(trigrams(arpa)).toEqual(
      expect.arrayContaining(['spondylolisthesis at l', 'at l four', 'l four five', 'insert macro spondy']),
    );

    const files = await languageModelFor(server.db, organisationId, languageModelDir(server.dataDir));
    expect(files?.lmPath.startsWith(path.join(server.dataDir, 'speech-models'))).toBe(true);
    expect(await readFile(files?.lmPath ?? '', 'utf8')).toBe(arpa);
    expect(await readFile(files?.dictPath ?? '', 'utf8')).toBe(dictionary);
  });

  it('leaves another organisation alone', async () => {
    const [other] = await server.db
      .select()
      .from(t.speechLanguageModels)
      .where(and(eq(t.speechLanguageModels.organisationId, otherOrganisationId)));
    // The other organisation's own first build (from the first test) knows none of these words.
    if (other) expect(other.lmArpa).not.toContain('cholangiocarcinoma');
    const response = await server.request('POST', '/api/v1/radiologist/template', {
      token: adminToken,
      body: { name: 'CT neck', scope: 'ORGANISATION', content: '<p>Thyroid nodule.</p>' },
    });
    expect(response.status).toBe(201);
    expect((await jobsOf(otherOrganisationId)).filter((job) => job.status === 'pending')).toHaveLength(0);
  });
});
