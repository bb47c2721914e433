// The organisation language model of the offline speech engine (issue 17): built from the
// organisation's templates, macros and latest final reports by the durable job
// `dictation.language-model`, stored in speech_language_models (so every replica has it) and
// written to a disk cache named by its hash for PocketSphinx to read.
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, desc, eq, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { TDb, TDbOrTx } from '../../../db/client.ts';
import { macros, reports, speechLanguageModels, templates, users } from '../../../db/schema/index.ts';
import { queryRows } from '../../../db/rows.ts';
import { reportHtmlToText } from '../../../html/sanitize-report-html.ts';
import { enqueueJob, type TJobHandler } from '../../../jobs/jobs.ts';
import { buildLanguageModelInWorker } from './build-in-worker.ts';
import type { TLanguageModelSources } from './build-language-model.ts';

export const LANGUAGE_MODEL_QUEUE = 'dictation.language-model';
/** Changes this close together (templates saved one after another) make one rebuild. */
export const LANGUAGE_MODEL_DEBOUNCE_MS = 30_000;
/** The latest final reports read (enough for the vocabulary; bounded work). */
const MAX_REPORTS = 5_000;

export type TLanguageModelInfo = { built_at: string; words: number; sentences: number };
export type TLanguageModelPaths = { lmPath: string; dictPath: string };

/** Default disk cache; the server passes languageModelDir(config.dataDir). */
export const DEFAULT_LANGUAGE_MODEL_DIR = path.join(tmpdir(), 'ris-speech-models');

/** Where the server keeps the models' files: a cache under its data directory. */
export function languageModelDir(dataDir: string): string {
  return path.join(dataDir, 'speech-models');
}

/** The organisation's texts: active shared, default and personal templates, its users' macros, reports. */
export async function languageModelSources(
  db: TDbOrTx,
  organisationId: string,
): Promise<TLanguageModelSources> {
  const templateRows = await db
    .select({ name: templates.name, content: templates.content })
    .from(templates)
    .where(
      and(
        eq(templates.status, 'ACTIVE'),
        or(
          eq(templates.organisationId, organisationId),
          and(isNull(templates.organisationId), eq(templates.scope, 'DEFAULT')),
        ),
      ),
    );
  const macroRows = await db
    .select({ shortKey: macros.shortKey, value: macros.value })
    .from(macros)
    .innerJoin(users, eq(users.id, macros.userId))
    .where(eq(users.organisationId, organisationId));
  const reportRows = await db
    .select({ text: reports.contentText })
    .from(reports)
    .where(and(eq(reports.organisationId, organisationId), isNotNull(reports.finalizedAt)))
    .orderBy(desc(reports.finalizedAt))
    .limit(MAX_REPORTS);
  return {
    texts: [
      ...templateRows.map((row) => reportHtmlToText(row.content)),
      ...macroRows.map((row) => reportHtmlToText(row.value)),
      ...reportRows.map((row) => row.text),
    ],
    templateNames: templateRows.map((row) => row.name),
    macroKeys: macroRows.map((row) => row.shortKey),
  };
}

/** Builds the organisation's model now (in a worker thread) and stores it. */
export async function rebuildLanguageModel(db: TDb, organisationId: string): Promise<TLanguageModelInfo> {
  const built = await buildLanguageModelInWorker(await languageModelSources(db, organisationId));
  const values = {
    builtAt: new Date(),
    words: built.words,
    sentences: built.sentences,
    lmSha256: built.sha256,
    lmArpa: built.arpa,
    dictionary: built.dictionary,
  };
  await db
    .insert(speechLanguageModels)
    .values({ organisationId, ...values })
    .onConflictDoUpdate({ target: speechLanguageModels.organisationId, set: values });
  return { built_at: values.builtAt.toISOString(), words: built.words, sentences: built.sentences };
}

/**
 * Asks for a rebuild (in the caller's transaction), debounced: a change adds a job due in
 * LANGUAGE_MODEL_DEBOUNCE_MS unless one is already waiting, so a burst of saves makes one build, and a
 * change made while a build runs makes the next. `immediate` (first use) makes the waiting job due now.
 * The organisation's lock makes the look and the insert one step: two saves at once (two tabs, two
 * replicas) find each other's job rather than each adding one.
 */
export async function enqueueLanguageModelBuild(
  db: TDbOrTx,
  organisationId: string,
  options: { immediate?: boolean } = {},
): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`${LANGUAGE_MODEL_QUEUE}:${organisationId}`}, 0))`,
    );
    const [waiting] = await queryRows<{ id: string }>(
      tx,
      sql`select id from jobs where queue = ${LANGUAGE_MODEL_QUEUE} and status = 'pending'
        and payload->>'organisation_id' = ${organisationId} order by run_at limit 1`,
    );
    if (waiting) {
      if (options.immediate) await tx.execute(sql`update jobs set run_at = now() where id = ${waiting.id}`);
      return waiting.id;
    }
    return enqueueJob(tx, {
      queue: LANGUAGE_MODEL_QUEUE,
      payload: { organisation_id: organisationId },
      runAt: options.immediate ? undefined : new Date(Date.now() + LANGUAGE_MODEL_DEBOUNCE_MS),
      maxAttempts: 3,
    });
  });
}

/** When the model was built and how big it is (C's settings panel), or null before the first build. */
export async function languageModelInfo(
  db: TDbOrTx,
  organisationId: string,
): Promise<TLanguageModelInfo | null> {
  const [row] = await db
    .select({
      builtAt: speechLanguageModels.builtAt,
      words: speechLanguageModels.words,
      sentences: speechLanguageModels.sentences,
    })
    .from(speechLanguageModels)
    .where(eq(speechLanguageModels.organisationId, organisationId));
  return row ? { built_at: row.builtAt.toISOString(), words: row.words, sentences: row.sentences } : null;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * The model's files for PocketSphinx, written to `dir` from the database on first use by this
 * replica. Null when the organisation has none yet: the first build is enqueued and the generic
 * model serves meanwhile.
 */
export async function languageModelFor(
  db: TDbOrTx,
  organisationId: string,
  dir: string = DEFAULT_LANGUAGE_MODEL_DIR,
): Promise<TLanguageModelPaths | null> {
  const [row] = await db
    .select({ sha: speechLanguageModels.lmSha256 })
    .from(speechLanguageModels)
    .where(eq(speechLanguageModels.organisationId, organisationId));
  if (!row) {
    await enqueueLanguageModelBuild(db, organisationId, { immediate: true });
    return null;
  }
  const lmPath = path.join(dir, `${row.sha}.lm`);
  const dictPath = path.join(dir, `${row.sha}.dict`);
  if ((await exists(lmPath)) && (await exists(dictPath))) return { lmPath, dictPath };
  const [files] = await db
    .select({ arpa: speechLanguageModels.lmArpa, dictionary: speechLanguageModels.dictionary })
    .from(speechLanguageModels)
    .where(
      and(
        eq(speechLanguageModels.organisationId, organisationId),
        eq(speechLanguageModels.lmSha256, row.sha),
      ),
    );
  if (!files) return null;
  await mkdir(dir, { recursive: true });
  // Written aside and renamed: a concurrent reader never sees half a file.
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  await writeFile(lmPath + suffix, files.arpa);
  await writeFile(dictPath + suffix, files.dictionary);
  await rename(dictPath + suffix, dictPath);
  await rename(lmPath + suffix, lmPath);
  return { lmPath, dictPath };
}

/** The job's handler: rebuilds the organisation named in the payload. */
export function languageModelJobHandler(db: TDb): TJobHandler {
  return {
    async run({ job }) {
      const organisationId = String(job.payload.organisation_id);
      const info = await rebuildLanguageModel(db, organisationId);
      return { words: info.words, sentences: info.sentences };
    },
  };
}
