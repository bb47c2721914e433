// @vitest-environment happy-dom
import { NO_CAPABILITIES, type TDicomSeries } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../../stores/auth-store.ts';
import { byName, click, render, waitFor, type Rendered } from '../../test/dom.tsx';
import { buildUser } from '../auth/test-support.ts';
import { buildItem } from '../../test/worklist-items.ts';
import { SeriesPanel } from './series-panel.tsx';

const STUDY_UID = '1.2.840.99.1';
const SERIES: TDicomSeries[] = [
  { series_uid: '1.2.840.99.1.1', modality: 'CT', description: 'Axial', number: 1, instance_count: 120 },
  { series_uid: '1.2.840.99.1.2', modality: 'SR', description: null, number: 2, instance_count: 1 },
];

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  authStore.getState().clear();
  window.localStorage.clear();
});

function signIn() {
  const user = buildUser();
  authStore.getState().setVerifiedUser({
    user,
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [],
    capabilities: NO_CAPABILITIES,
  });
  return user;
}

/** The archive through the API: the series list, JPEG thumbnails and the viewer link. */
function fakeApi() {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      asked.push(`${url.pathname}?${url.searchParams.toString()}`);
      if (url.pathname === '/api/v1/dicom/series') return Response.json(SERIES);
      if (url.pathname === '/api/v1/dicom/viewer')
        return Response.json({ url: `/viewer/viewer?StudyInstanceUIDs=${STUDY_UID}`, viewer_type: 'ohif' });
      return new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), {
        headers: { 'content-type': 'image/jpeg' },
      });
    }),
  );
  return asked;
}

async function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  view = await render(
    <QueryClientProvider client={client}>
      <SeriesPanel item={buildItem(1, { study_uid: STUDY_UID })} />
    </QueryClientProvider>,
  );
  return view.container;
}

describe('the Series panel of the reporting screen', () => {
  it('shows each series with its thumbnail (fetched with the token), modality, description and count', async () => {
    signIn();
    const asked = fakeApi();
    const panel = await renderPanel();
    await waitFor(() =>
      expect(panel.querySelectorAll('[data-testid="series-thumbnail"] img')).toHaveLength(2),
    );
    const text = panel.textContent ?? '';
    expect(text).toContain('Series(2)');
    expect(text).toContain('1. CT · Axial');
    expect(text).toContain('120 images');
    expect(text).toContain('2. SR');
    expect(text).toContain('1 image');
    expect(asked).toContain(
      `/api/v1/dicom/series-thumbnail?study_uid=${STUDY_UID}&series_uid=1.2.840.99.1.1`,
    );

    await click(byName(panel, 'button', 'Series(2)'));
    expect(panel.querySelector('[data-testid="series-thumbnail"]')).toBeNull();
  });

  it('opens the viewer in the window beside the editor, and remembers "always" per user', async () => {
    const user = signIn();
    fakeApi();
    const open = vi.spyOn(window, 'open').mockImplementation(() => ({ opener: null }) as Window);
    const panel = await renderPanel();
    await click(byName(panel, 'button', 'Open viewer beside'));
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    expect(open.mock.calls[0]?.[0]).toContain(`/viewer/viewer?StudyInstanceUIDs=${STUDY_UID}`);
    expect(open.mock.calls[0]?.[1]).toBe('ris-viewer');

    const always = panel.querySelector<HTMLInputElement>('input[type="checkbox"]');
    expect(always?.checked).toBe(false);
    if (always) await click(always);
    expect(window.localStorage.getItem(`ris.open-viewer-beside-editor.${user.id}`)).toBe('true');
    // The choice opens the viewer for this study and every study opened next.
    await waitFor(() => expect(open).toHaveBeenCalledTimes(2));
    await view?.unmount();
    await renderPanel();
    await waitFor(() => expect(open).toHaveBeenCalledTimes(3));
  });
});
