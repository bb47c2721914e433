// @vitest-environment happy-dom
import { NO_CAPABILITIES, type TStudyStatus } from '@ris/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor, type Rendered } from '../../test/dom.tsx';
import { buildItem } from '../../test/worklist-items.ts';
import { authStore } from '../../stores/auth-store.ts';
import { FACILITY, buildUser } from '../auth/test-support.ts';
import { fakeApi, renderRoutes } from '../templates/test-app.tsx';
import { ReportSection } from './report-section.tsx';

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
});

/** The section as a user of `role` sees it when the server answers 404 for the study's report. */
async function withoutReport(role: 'REFERRING_PHYSICIAN' | 'TRANSCRIPTIONIST', status: TStudyStatus) {
  fakeApi(() => ({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'Report not found' } } }));
  authStore.getState().setVerifiedUser({
    user: buildUser({ id: '00000000-0000-4000-8000-0000000000b1', role }),
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [FACILITY],
    capabilities: NO_CAPABILITIES,
  });
  const study = buildItem(1, { status });
  view = await renderRoutes([{ path: '/', element: <ReportSection study={study} /> }], '/');
  return waitFor(() => {
    const text = document.body.textContent ?? '';
    if (!text.includes('report') || text.includes('Loading')) throw new Error('the report is loading');
    return text;
  });
}

describe('a study without a report the user may read', () => {
  it('tells a referring physician that a report being written is not final yet', async () => {
    const text = await withoutReport('REFERRING_PHYSICIAN', 'IN_REVIEW');
    expect(text).toContain('The report is not final yet.');
    expect(text).not.toContain('No report has been written yet.');
  });

  it('tells others that no report has been written', async () => {
    expect(await withoutReport('TRANSCRIPTIONIST', 'TO_READ')).toContain('No report has been written yet.');
  });
});
