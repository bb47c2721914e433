// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settingsStore } from '../../../stores/settings-store.ts';
import { buildHit, hitPage } from '../../../test/report-search.ts';
import { click, waitFor, type Rendered } from '../../../test/dom.tsx';
import { fakeApi, renderRoutes, type RecordedRequest } from '../../templates/test-app.tsx';
import { PriorReportsPanel } from './prior-reports-panel.tsx';

const PATIENT = '00000000-0000-4000-8000-0000000000d1';
const study = { id: buildHit(9).study_id, patient_fk: PATIENT };

let view: (Rendered & { location: () => string }) | null = null;
beforeEach(() => settingsStore.getState().reset());
afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  settingsStore.getState().reset();
});

function searches(requests: RecordedRequest[]): URLSearchParams[] {
  return requests
    .filter((request) => request.path.startsWith('/api/v1/report/search'))
    .map((request) => new URL(request.path, 'http://localhost').searchParams);
}

describe('PriorReportsPanel', () => {
  it("lists the patient's other reports newest first, as the server orders them, and opens one in a tab", async () => {
    const newer = buildHit(2, {
      patient_id: PATIENT,
      patient_identifier: 'MRN-7',
      study_description: 'MRI Brain',
    });
    const older = buildHit(3, { patient_id: PATIENT, patient_identifier: 'MRN-7', has_pdf: false });
    const { requests } = fakeApi((request) => {
      const params = new URL(request.path, 'http://localhost').searchParams;
      if (params.get('patient_id') === PATIENT)
        return { status: 200, body: hitPage([newer, older], { limit: 5 }) };
      return { status: 404, body: { error: { code: 'NOT_FOUND', message: request.path } } };
    });
    view = await renderRoutes(
      [{ path: '/worklist/:worklistId', element: <PriorReportsPanel study={study} /> }],
      `/worklist/${study.id}`,
    );
    const items = await waitFor(() => {
      const found = Array.from(document.querySelectorAll('li[data-report-id]'));
      expect(found).toHaveLength(2);
      return found;
    });
    // One search: the study carries its patient record (patient_fk).
    const [priors, ...others] = searches(requests);
    expect(others).toHaveLength(0);
    expect(priors?.get('patient_id')).toBe(PATIENT);
    expect(priors?.get('exclude_study_id')).toBe(study.id);
    expect(priors?.get('sort_by')).toBe('date');
    expect(priors?.get('date_range_type')).toBe('CUSTOM');
    expect(priors?.has('start_date')).toBe(false);
    expect(priors?.get('limit')).toBe('5');
    expect(items.map((item) => item.getAttribute('data-report-id'))).toEqual([
      newer.report_id,
      older.report_id,
    ]);
    expect(document.body.textContent).toContain('Prior reports (2)');
    expect(items[0]?.querySelector('mark')?.textContent).toBe('pleural effusion');
    expect(items[0]?.querySelector('button[aria-label^="Download PDF"]')).not.toBeNull();
    expect(items[1]?.querySelector('button[aria-label^="Download PDF"]')).toBeNull();

    const open = items[0]?.querySelector('button');
    if (!open) throw new Error('no open button');
    await click(open);
    await waitFor(() => expect(view?.location()).toBe(`/worklist/${newer.study_id}`));
    expect(settingsStore.getState().tabs.map((tab) => tab.id)).toEqual([newer.study_id]);
  });

  it('says there are none when the patient has no other report', async () => {
    const { requests } = fakeApi(() => ({ status: 200, body: hitPage([]) }));
    view = await renderRoutes([{ path: '/', element: <PriorReportsPanel study={study} /> }], '/');
    await waitFor(() => expect(document.body.textContent).toContain('No prior reports of this patient.'));
    expect(searches(requests)).toHaveLength(1);
  });

  it("shows the server's message when the search fails", async () => {
    fakeApi(() => ({
      status: 403,
      body: { error: { code: 'FORBIDDEN', message: 'You may not search reports' } },
    }));
    view = await renderRoutes([{ path: '/', element: <PriorReportsPanel study={study} /> }], '/');
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toBe('You may not search reports'),
    );
  });
});
