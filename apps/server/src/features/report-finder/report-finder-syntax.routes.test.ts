// GET /report/search, the words: web-search syntax (words, "phrase", -word, OR), English stems,
// accents, Devanagari, stop words, addenda, ranking, snippets as plain-text parts, and text a user
// types by mistake (never a 5xx).
import { ZReportSearchResponse } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import {
  buildFinderWorld,
  idsFound,
  NOW,
  searchAs,
  type TFinderWorld,
} from '../../test/report-finder-world.ts';

let server: TTestServer;
let world: TFinderWorld;
let token = '';

beforeAll(async () => {
  server = await startTestServer({ clock: () => NOW });
  world = await buildFinderWorld(server);
  token = world.tokens.admin;
});

afterAll(async () => {
  await server?.close();
});

const sorted = (ids: string[]) => [...ids].sort();

describe('GET /report/search: words', () => {
  it('finds every inflection of a word by its English stem ("effusions" finds "effusion")', async () => {
    const { effusion, effusions, fracture, deleted, prior } = world.reports;
    const expected = sorted([effusion.id, effusions.id, fracture.id, deleted.id, prior.id]);
    expect(sorted(await idsFound(server, token, { q: 'effusions' }))).toEqual(expected);
    expect(sorted(await idsFound(server, token, { q: 'EFFUSION' }))).toEqual(expected);
  });

  it('needs every word, and a phrase in quotes in that order', async () => {
    const { effusion, fracture } = world.reports;
    expect(sorted(await idsFound(server, token, { q: 'moderate effusion' }))).toEqual([effusion.id]);
    expect(await idsFound(server, token, { q: '"effusion pleural"' })).toEqual([]);
    const phrase = await idsFound(server, token, { q: '"left pleural effusion"' });
    expect(phrase).toEqual([effusion.id]);
    // "No rib fracture" and "rib fractures": the same stems in that order.
    expect(sorted(await idsFound(server, token, { q: '"rib fractures"' }))).toEqual(
      sorted([effusion.id, fracture.id]),
    );
  });

  it('leaves out reports with an excluded word (-fracture, stemmed: "fractures" too)', async () => {
    const { effusions, deleted, prior } = world.reports;
    expect(sorted(await idsFound(server, token, { q: 'pleural -fracture' }))).toEqual(
      sorted([effusions.id, deleted.id, prior.id]),
    );
  });

  it('matches either side of OR', async () => {
    const { oedeme, hindi } = world.reports;
    expect(sorted(await idsFound(server, token, { q: 'oedeme OR unremarkable' }))).toEqual(
      sorted([oedeme.id, hindi.id]),
    );
  });

  it('ignores accents both ways and highlights the word as written', async () => {
    const { oedeme } = world.reports;
    expect(await idsFound(server, token, { q: 'oedeme' })).toEqual([oedeme.id]);
    expect(await idsFound(server, token, { q: 'OEDÈME' })).toEqual([oedeme.id]);
    const response = await searchAs(server, token, { q: 'oedeme' });
    expect(response.body.items[0]?.snippet.filter((part) => part.match)).toEqual([
      { text: 'oedème', match: true },
    ]);
  });

  it('finds a word in Devanagari', async () => {
    const { hindi } = world.reports;
    expect(await idsFound(server, token, { q: 'फुफ्फुसों' })).toEqual([hindi.id]);
    expect(await idsFound(server, token, { q: 'द्रव' })).toEqual([hindi.id]);
  });

  it('searches stop words alone as the words written ("the and" finds reports holding both)', async () => {
    expect(await idsFound(server, token, { q: 'the and' })).toEqual([world.reports.fracture.id]);
    expect(await idsFound(server, token, { q: 'the' })).toEqual([world.reports.fracture.id]);
  });

  it('finds the words of an addendum', async () => {
    const { oedeme } = world.reports;
    const added = await server.request('POST', `/api/v1/worklist/report/${oedeme.id}/addendum`, {
      token,
      body: { content: '<p>Addendum: no hydrocephalus.</p>', by_user_id: world.admin.id },
    });
    expect(added.status, added.text).toBe(201);
    expect(await idsFound(server, token, { q: 'hydrocephalus' })).toEqual([oedeme.id]);
    expect(await idsFound(server, token, { q: 'oedeme hydrocephalus' })).toEqual([oedeme.id]);
  });
});

describe('GET /report/search: ranking and snippets', () => {
  it('ranks by relevance, ties newest first; sort_by=date is newest first', async () => {
    const { effusion, fracture, prior } = world.reports;
    const ranked = await searchAs(server, token, {
      q: 'pleural effusion',
      facility_ids: [world.f1.id, world.f2.id],
    });
    expect(ranked.status).toBe(200);
    const ranks = ranked.body.items.map((item) => item.rank ?? -1);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    expect(ranks.every((rank) => rank > 0)).toBe(true);
    const byDate = await idsFound(server, token, { q: 'small pleural effusion', sort_by: 'date' });
    expect(byDate).toEqual([fracture.id, prior.id]);
    const byRelevance = await searchAs(server, token, { q: '"pleural effusion" moderate OR small' });
    expect(byRelevance.body.items.map((item) => item.report_id)).toEqual(
      expect.arrayContaining([effusion.id, fracture.id, prior.id]),
    );
  });

  it('marks the matched words in plain-text parts, never HTML', async () => {
    const response = await searchAs(server, token, { q: '"left pleural effusion"' });
    expect(ZReportSearchResponse.safeParse(response.json).success).toBe(true);
    const [hit] = response.body.items;
    expect(hit?.snippet).toEqual([
      { text: 'Moderate ', match: false },
      { text: 'left', match: true },
      { text: ' ', match: false },
      { text: 'pleural', match: true },
      { text: ' ', match: false },
      { text: 'effusion', match: true },
      { text: '. No rib fracture is seen', match: false },
    ]);
    expect(hit?.rank).toBeGreaterThan(0);
    expect(response.text).not.toContain('<b>');
  });

  it('without q: newest first, the opening lines as the snippet, no rank', async () => {
    const response = await searchAs(server, token, { patient_id: world.patient.id });
    expect(response.body.items.map((item) => item.report_id)).toEqual([
      world.reports.effusion.id,
      world.reports.prior.id,
    ]);
    expect(response.body.items[0]?.snippet).toEqual([
      { text: 'Moderate left pleural effusion. No rib fracture is seen.', match: false },
    ]);
    expect(response.body.items[0]?.rank).toBeNull();
  });
});

describe('GET /report/search: text typed by mistake', () => {
  const harmless = [
    '"unbalanced pleural',
    'pleural"',
    '-',
    '- -',
    'OR',
    '""',
    '!!! & | ( ) : * \\',
    "effusion's",
    'a\u0000b',
    '\u0007pleural\u001b',
    'pleural\ud800',
    'x'.repeat(500),
    'pleural '.repeat(62),
  ];
  it.each(harmless)('answers 200 for %j', async (q) => {
    const response = await searchAs(server, token, { q });
    expect(response.status, response.text).toBe(200);
    expect(ZReportSearchResponse.safeParse(response.json).success).toBe(true);
  });

  it('reads a q with no word at all as no words (every report under the filters)', async () => {
    const all = await idsFound(server, token, {});
    expect(await idsFound(server, token, { q: '-' })).toEqual(all);
    expect(await idsFound(server, token, { q: '"' })).toEqual(all);
  });

  it('reads control characters as spaces', async () => {
    expect(await idsFound(server, token, { q: 'moderate\u0000effusion' })).toEqual([
      world.reports.effusion.id,
    ]);
  });

  it('answers 400 naming q above 500 characters', async () => {
    const response = await searchAs(server, token, { q: 'x'.repeat(501) });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.json)).toContain('q');
  });
});
