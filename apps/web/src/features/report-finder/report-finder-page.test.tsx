// @vitest-environment happy-dom
import type { TReportSearchResponse } from '@ris/domain';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../../stores/auth-store.ts';
import { settingsStore } from '../../stores/settings-store.ts';
import { buildHit, hitPage } from '../../test/report-search.ts';
import { byName, click, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { FACILITY, buildUser } from '../auth/test-support.ts';
import { fakeApi, renderRoutes, type Answer, type RecordedRequest } from '../templates/test-app.tsx';
import { ReportFinderPage } from './report-finder-page.tsx';

const RADIOLOGIST = '00000000-0000-4000-8000-0000000000c1';
const TAG = '00000000-0000-4000-8000-0000000000c2';
const REFERRER = '00000000-0000-4000-8000-0000000000c3';

let view: (Rendered & { location: () => string }) | null = null;

beforeEach(() => {
  settingsStore.getState().reset();
  authStore.getState().setVerifiedUser({
    user: buildUser({ role: 'RADIOLOGIST' }),
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [FACILITY],
  });
});

afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
  settingsStore.getState().reset();
});

/** A fake API whose GET /report/search answers `search(params)`; anything else is a 404. */
function api(search: (params: URLSearchParams) => Answer) {
  return fakeApi((request: RecordedRequest) => {
    const url = new URL(request.path, 'http://localhost');
    if (url.pathname === '/api/v1/report/search') return search(url.searchParams);
    return { status: 404, body: { error: { code: 'NOT_FOUND', message: `unexpected ${request.path}` } } };
  });
}

const ok = (body: TReportSearchResponse): Answer => ({ status: 200, body });

/** The query of each GET /report/search sent so far. */
function searches(requests: RecordedRequest[]): URLSearchParams[] {
  return requests
    .filter((request) => request.path.startsWith('/api/v1/report/search'))
    .map((request) => new URL(request.path, 'http://localhost').searchParams);
}

async function renderFinder() {
  view = await renderRoutes(
    [
      { path: '/report-finder', element: <ReportFinderPage /> },
      { path: '/worklist/:worklistId', element: <p>Reporting screen</p> },
    ],
    '/report-finder',
  );
  return view;
}

describe('report finder', () => {
  it('sends every filter of the session under its contract name, and a typed query after the pause', async () => {
    settingsStore.getState().setReportFinderFilters({
      search: ' MRN-7 ',
      date_range_type: 'CUSTOM',
      start_date: '2026-01-01',
      end_date: '2026-06-30',
      facility_ids: [FACILITY.id],
      modalities: ['CT', 'MRI'],
      priority_tags: ['URGENT'],
      radiologist_ids: [RADIOLOGIST],
      report_statuses: ['COMPLETED', 'DRAFTED'],
      tag_ids: [TAG],
      referring_physician_ids: [REFERRER],
      sort_by: 'date',
    });
    const { requests } = api(() => ok(hitPage([buildHit(1)])));
    await renderFinder();
    const first = await waitFor(() => {
      const sent = searches(requests)[0];
      if (!sent) throw new Error('no search yet');
      return sent;
    });
    expect(first.has('q')).toBe(false);
    expect(first.get('search')).toBe('MRN-7');
    expect(first.get('date_range_type')).toBe('CUSTOM');
    expect(first.get('start_date')).toBe('2026-01-01');
    expect(first.get('end_date')).toBe('2026-06-30');
    expect(first.get('time_zone')).toBeTruthy();
    expect(first.getAll('facility_ids')).toEqual([FACILITY.id]);
    expect(first.getAll('modalities')).toEqual(['CT', 'MRI']);
    expect(first.getAll('priority_tags')).toEqual(['URGENT']);
    expect(first.getAll('radiologist_ids')).toEqual([RADIOLOGIST]);
    expect(first.getAll('report_statuses')).toEqual(['COMPLETED', 'DRAFTED']);
    expect(first.getAll('tag_ids')).toEqual([TAG]);
    expect(first.getAll('referring_physician_ids')).toEqual([REFERRER]);
    expect(first.get('sort_by')).toBe('date');
    expect(first.get('limit')).toBe('20');
    expect(first.get('offset')).toBe('0');

    const box = byName<HTMLInputElement>(document.body, 'input', 'Search report text');
    const hint = document.getElementById(box.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toContain('"exact phrase"');
    await typeInto(box, '"pleural effusion" -chronic');
    const typed = await waitFor(() => {
      const sent = searches(requests).find((params) => params.has('q'));
      if (!sent) throw new Error('no search with q yet');
      return sent;
    });
    expect(typed.get('q')).toBe('"pleural effusion" -chronic');
    expect(settingsStore.getState().reportFinderFilters.q).toBe('"pleural effusion" -chronic');
  });

  it('asks for every date by default (a preset leaves the dates out)', async () => {
    const { requests } = api(() => ok(hitPage([])));
    await renderFinder();
    const first = await waitFor(() => {
      const sent = searches(requests)[0];
      if (!sent) throw new Error('no search yet');
      return sent;
    });
    expect(first.get('date_range_type')).toBe('CUSTOM');
    expect(first.has('start_date')).toBe(false);
    expect(first.get('sort_by')).toBe('relevance');
    await waitFor(() => expect(document.body.textContent).toContain('No reports match these filters.'));

    await act(async () =>
      settingsStore
        .getState()
        .setReportFinderFilters({ date_range_type: 'LAST_1_WEEK', start_date: '2026-01-01' }),
    );
    const week = await waitFor(() => {
      const sent = searches(requests).find((params) => params.get('date_range_type') === 'LAST_1_WEEK');
      if (!sent) throw new Error('no weekly search yet');
      return sent;
    });
    expect(week.has('start_date')).toBe(false);
  });

  it('shows the snippet with the matches in <mark> and the rest as escaped text', async () => {
    api(() =>
      ok(
        hitPage([
          buildHit(1, {
            snippet: [
              { text: '<img src=x onerror="alert(1)"> No ', match: false },
              { text: 'effusion', match: true },
              { text: ' & no <b>pneumothorax</b>', match: false },
            ],
          }),
        ]),
      ),
    );
    await renderFinder();
    const row = await waitFor(() => {
      const found = document.querySelector('tr[data-report-id]');
      if (!found) throw new Error('no result row yet');
      return found;
    });
    const marks = Array.from(row.querySelectorAll('mark')).map((mark) => mark.textContent);
    expect(marks).toEqual(['effusion']);
    expect(row.querySelector('img')).toBeNull();
    expect(row.querySelector('b')).toBeNull();
    expect(row.textContent).toContain('<img src=x onerror="alert(1)"> No effusion & no <b>pneumothorax</b>');
    expect(row.textContent).toContain('Patient 1');
    expect(row.textContent).toContain('MRN-1');
    expect(row.textContent).toContain('Dr Asha Rao');
    expect(row.textContent).toContain('Final');
  });

  it('says a capped total as a lower bound ("of 1,000+") and still pages on', async () => {
    const hits = Array.from({ length: 20 }, (_, index) => buildHit(index + 1));
    api(() => ok({ ...hitPage(hits, { total: 1000, capped: true }), next_offset: 20 }));
    await renderFinder();
    await waitFor(() => expect(document.body.textContent).toContain('1–20 of 1,000+'));
    expect(byName(document.body, 'button', 'Next page').hasAttribute('disabled')).toBe(false);
  });

  it('pages by the server offsets, changes the page size for the session, and opens a result as a tab', async () => {
    const hits = Array.from({ length: 45 }, (_, index) => buildHit(index + 1));
    const { requests } = api((params) => {
      const limit = Number(params.get('limit'));
      const offset = Number(params.get('offset'));
      return ok(hitPage(hits.slice(offset, offset + limit), { total: hits.length, limit, offset }));
    });
    const rendered = await renderFinder();
    await waitFor(() => expect(document.body.textContent).toContain('1–20 of 45'));
    await click(byName(document.body, 'button', 'Next page'));
    await waitFor(() => expect(document.body.textContent).toContain('21–40 of 45'));
    expect(searches(requests).at(-1)?.get('offset')).toBe('20');
    expect(document.body.textContent).toContain('Patient 21');

    const size = document.querySelector<HTMLSelectElement>('nav[aria-label="Report finder pages"] select');
    if (!size) throw new Error('no page size select');
    await typeInto(size, '50');
    await waitFor(() => expect(document.body.textContent).toContain('1–45 of 45'));
    expect(searches(requests).at(-1)?.get('limit')).toBe('50');
    expect(searches(requests).at(-1)?.get('offset')).toBe('0');
    expect(settingsStore.getState().pageSizes.reportFinder).toBe(50);

    await click(byName(document.body, 'button', 'Open report of Patient 3'));
    await waitFor(() => expect(rendered.location()).toBe(`/worklist/${buildHit(3).study_id}`));
    expect(settingsStore.getState().tabs).toEqual([
      { id: buildHit(3).study_id, title: 'Patient 3', path: `/worklist/${buildHit(3).study_id}` },
    ]);
  });

  it('offers the PDF only when the report has one', async () => {
    api(() => ok(hitPage([buildHit(1), buildHit(2, { has_pdf: false, report_status: 'DRAFTED' })])));
    await renderFinder();
    await waitFor(() => expect(document.querySelectorAll('tr[data-report-id]')).toHaveLength(2));
    expect(() => byName(document.body, 'button', 'Download PDF of Patient 1')).not.toThrow();
    expect(() => byName(document.body, 'button', 'Download PDF of Patient 2')).toThrow();
  });

  it("shows the server's message when the search fails, and searches again on request", async () => {
    let fail = true;
    api(() =>
      fail
        ? { status: 400, body: { error: { code: 'VALIDATION', message: 'q is too long' } } }
        : ok(hitPage([buildHit(1)])),
    );
    await renderFinder();
    await waitFor(() => expect(document.querySelector('[role="alert"]')?.textContent).toBe('q is too long'));
    fail = false;
    await click(byName(document.body, 'button', 'Try again'));
    await waitFor(() => expect(document.querySelectorAll('tr[data-report-id]')).toHaveLength(1));
  });

  it('offers a referring physician no staff-only filters (radiologist, tags, referring physician)', async () => {
    authStore.getState().setVerifiedUser({
      user: buildUser({ role: 'REFERRING_PHYSICIAN', user_type: null }),
      roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
      facilities: [FACILITY],
    });
    api(() => ok(hitPage([])));
    await renderFinder();
    await waitFor(() => expect(document.body.textContent).toContain('No reports match these filters.'));
    const filters = Array.from(document.querySelectorAll('button[aria-label]')).map((button) =>
      button.getAttribute('aria-label'),
    );
    expect(filters).toContain('Report status: all');
    expect(filters).not.toContain('Radiologist: all');
    expect(filters).not.toContain('Tags: all');
    expect(filters).not.toContain('Referring physician: all');
  });
});
