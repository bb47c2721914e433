// The worklist bench's fuzzing (issue 15; BENCH_FUZZ=1): BENCH_FUZZ_REQUESTS (1,500) requests, one at a
// time, each a random combination of every filter of GET /worklist and GET /worklist/status/count
// (date presets and custom ranges, status tabs and subsets, modalities, priorities, facility subsets,
// one or two assignees, a text of FUZZ_TEXTS, any sort column and order, limits and offsets), as each
// caller in turn at random, count cache off. The same BENCH_FUZZ_SEED (1) draws the same requests,
// so a round can be run before and after a change. Prints the answers' statuses, the server time's
// percentiles, how many passed the issue's target (15 ms without search, 30 with search over a range,
// 60 over all dates), and the slowest, each timed FUZZ_RETIMES more times (their median). The
// matrix chooses its filters; this finds the combinations nobody listed (a radiologist naming two
// colleagues of other hospitals: 270-356 ms, found so).
import {
  DATE_RANGE_TYPES,
  MODALITIES,
  PRIORITY_TAGS,
  STUDY_STATUSES,
  WORKLIST_SORT_FIELDS,
} from '@ris/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';
import { percentile } from './bench-support.ts';
import { httpTransport, type TMatrixTransport } from './worklist-bench-transport.ts';

/** Texts people type: names and parts, descriptions, two letters, digits, identifiers' prefixes. */
const FUZZ_TEXTS = [
  'smith',
  'fernandez',
  'garcía',
  'GARC',
  'søren',
  'chen',
  'kim',
  'wu',
  'xu',
  'ma',
  'a',
  'é',
  'ana',
  'joh',
  'maria',
  'brain',
  'chest',
  'lumbar spine',
  'abdomen',
  'ct',
  'mr',
  'us',
  'x-ray',
  'bone',
  '12',
  '05',
  '2026',
  'A0003',
  'A0009',
  'A00091',
  'MRN01',
  'MRN0001234',
  'MRN012',
  'mrn',
  'ez',
  'son',
  'ová',
  'Łuk',
  'zz',
  'qqq',
  'dr',
  'plain',
  'scan',
  'pelvis',
  'h',
  'ri',
  'an',
  '0000',
] as const;
const PRESETS = DATE_RANGE_TYPES.filter((type) => type !== 'CUSTOM');
/** The statuses every caller may filter by (DELETED is an admin's alone). */
const STATUSES = STUDY_STATUSES.filter((status) => status !== 'DELETED');
const TABS = [
  ['ORDERED'],
  ['TO_READ', 'ASSIGNED', 'IN_REVIEW', 'DRAFTED'],
  ['FINAL'],
  ['ORDERED', 'TO_READ'],
];
const FUZZ_RETIMES = 3;
const SLOWEST_SHOWN = 20;
const DAY_MS = 86_400_000;

export type TFuzzCaller = { name: string; token: string };
/** One drawn request: its caller, its path (from /api/v1/…) and the issue's target for it, in ms. */
export type TFuzzRequest = { caller: string; path: string; target: number };

/** A seeded generator of numbers in [0, 1) (mulberry32): the same seed draws the same requests. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` requests drawn from `seed` for `callers`, naming the organisation's `facilityIds` and `assigneeIds`. */
export function fuzzRequests(
  seed: number,
  count: number,
  input: {
    callers: readonly string[];
    facilityIds: readonly string[];
    assigneeIds: readonly string[];
    now: Date;
  },
): TFuzzRequest[] {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const some = <T>(values: readonly T[], most: number): T[] =>
    [...values].sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * most));
  const day = (daysAgo: number) =>
    new Date(input.now.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);
  return Array.from({ length: count }, () => {
    const params = new URLSearchParams();
    let allDates = false;
    if (random() < 0.55) params.append('date_range_type', pick(PRESETS));
    else {
      params.append('date_range_type', 'CUSTOM');
      const from = Math.floor(random() * 96);
      if (random() < 0.45) allDates = true;
      else {
        params.append('start_date', day(from));
        if (random() < 0.3) params.append('end_date', day(Math.floor(random() * from)));
      }
    }
    if (random() < 0.4)
      for (const status of random() < 0.7 ? pick(TABS) : some(STATUSES, 3)) params.append('statuses', status);
    if (random() < 0.3) for (const group of some(MODALITIES, 2)) params.append('modalities', group);
    if (random() < 0.12) for (const tag of some(PRIORITY_TAGS, 2)) params.append('priority_tags', tag);
    if (random() < 0.15) for (const id of some(input.facilityIds, 5)) params.append('facility_ids', id);
    if (random() < 0.1) for (const id of some(input.assigneeIds, 2)) params.append('by_user_ids', id);
    const searched = random() < 0.6;
    if (searched) params.append('search', pick(FUZZ_TEXTS));
    const counts = random() < 0.2;
    if (!counts) {
      params.append('sort_by', pick(WORKLIST_SORT_FIELDS));
      params.append('sort_order', random() < 0.5 ? 'asc' : 'desc');
      params.append('limit', String(pick([25, 25, 25, 50, 100])));
      if (random() < 0.2) params.append('offset', String(pick([25, 100, 500, 975])));
    }
    const target = !searched ? 15 : allDates ? 60 : 30;
    const path = `/api/v1/worklist${counts ? '/status/count' : ''}?${params.toString()}`;
    return { caller: pick(input.callers), path, target };
  });
}

/** Sends each request in turn; returns the round's summary as lines of text. */
export async function runFuzz(
  transport: TMatrixTransport,
  callers: readonly TFuzzCaller[],
  requests: readonly TFuzzRequest[],
): Promise<string[]> {
  const tokenOf = new Map(callers.map((caller) => [caller.name, caller.token]));
  const timed = async (request: TFuzzRequest) => {
    const started = performance.now();
    const response = await transport.get(request.path, tokenOf.get(request.caller) ?? '');
    return { status: response.status, ms: response.serverMs ?? performance.now() - started };
  };
  const answers = [];
  for (const request of requests) answers.push({ request, ...(await timed(request)) });
  const statuses = new Map<number, number>();
  for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
  const ok = answers.filter((answer) => answer.status === 200);
  const times = ok.map((answer) => answer.ms);
  const lines = [
    `Fuzz: ${answers.length} requests; answers ${[...statuses].map(([status, n]) => `${status}: ${n}`).join(', ')}.`,
    `Server time of the 200s: p50 ${percentile(times, 50).toFixed(1)}, p90 ${percentile(times, 90).toFixed(1)}, p99 ${percentile(times, 99).toFixed(1)}, max ${percentile(times, 100).toFixed(1)} ms; over target ${ok.filter((answer) => answer.ms > answer.request.target).length}.`,
    ...answers
      .filter((answer) => answer.status >= 500)
      .map((answer) => `5xx: ${answer.request.caller} ${answer.request.path}`),
  ];
  const slowest = [...ok].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST_SHOWN);
  for (const answer of slowest) {
    const again: number[] = [];
    for (let i = 0; i < FUZZ_RETIMES; i++) again.push((await timed(answer.request)).ms);
    lines.push(
      `${percentile(again, 50).toFixed(1)} ms (first ${answer.ms.toFixed(1)}, target ${answer.request.target}): ${answer.request.caller} ${answer.request.path}`,
    );
  }
  return lines;
}

/**
 * A round over HTTP to a bench server process with the count cache off (BENCH_FUZZ_SEED,
 * BENCH_FUZZ_REQUESTS): the organisation's facilities and radiologists named by its filters, the
 * admin drawn twice as often as the radiologist or the reporter. Its summary, as lines of text.
 */
export async function fuzzRound(
  db: TDbOrTx,
  input: {
    organisationId: string;
    server: { databaseUrl: string; tokenSecret: string };
    callers: readonly TFuzzCaller[];
  },
): Promise<string[]> {
  const idsOf = async (query: SQL) => (await queryRows<{ id: string }>(db, query)).map((row) => row.id);
  const organisation = input.organisationId;
  const requests = fuzzRequests(
    Number(process.env.BENCH_FUZZ_SEED ?? 1),
    Number(process.env.BENCH_FUZZ_REQUESTS ?? 1_500),
    {
      callers: ['admin', 'admin', 'radiologist', 'reporter'],
      facilityIds: await idsOf(
        sql`select id from facilities where organisation_id = ${organisation} order by code`,
      ),
      assigneeIds: await idsOf(
        sql`select id from users where organisation_id = ${organisation} and role = 'RADIOLOGIST' order by id`,
      ),
      now: new Date(),
    },
  );
  // Only reads: the transport's write is never sent.
  const adminToken = input.callers.find((caller) => caller.name === 'admin')?.token ?? '';
  const transport = await httpTransport(input.server, { adminToken, study: '' })(false);
  try {
    return await runFuzz(transport, input.callers, requests);
  } finally {
    await transport.close();
  }
}
