// @vitest-environment happy-dom
import { NO_CAPABILITIES, type TPopulateResult } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../stores/app-store.ts';
import { authStore } from '../../stores/auth-store.ts';
import { byName, click, render, waitFor, type Rendered } from '../../test/dom.tsx';
import { buildUser } from '../auth/test-support.ts';
import { SyncFromPacsButton, syncSummary } from './sync-from-pacs-button.tsx';

let view: Rendered | null = null;

afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
  appStore.getState().dismissToast();
});

function signIn(role: 'ADMIN' | 'FACILITY_ADMIN' | 'RADIOLOGIST') {
  authStore.getState().setVerifiedUser({
    user: buildUser({ role }),
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [],
    capabilities: NO_CAPABILITIES,
  });
}

const RESULT: TPopulateResult = {
  added: 2,
  updated: 1,
  deleted: 0,
  archives: [
    { id: 'a', name: 'Main Orthanc', ok: true, error: null, added: 2, updated: 1, deleted: 0 },
    {
      id: 'b',
      name: 'Old PACS',
      ok: false,
      error: 'Old PACS: cannot be reached',
      added: 0,
      updated: 0,
      deleted: 0,
    },
  ],
};

async function renderButton() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  view = await render(
    <QueryClientProvider client={client}>
      <SyncFromPacsButton />
    </QueryClientProvider>,
  );
  return view.container;
}

describe('Sync from PACS', () => {
  it('is not offered to a radiologist', async () => {
    signIn('RADIOLOGIST');
    const root = await renderButton();
    expect(root.querySelector('button')).toBeNull();
  });

  it('pulls for an admin and says what came, and which archive failed', async () => {
    signIn('FACILITY_ADMIN');
    const paths: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        paths.push(new URL(input, 'http://localhost').pathname);
        return new Response(JSON.stringify(RESULT), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    const root = await renderButton();
    await click(byName(root, 'button', 'Sync from PACS'));
    await waitFor(() => expect(paths).toEqual(['/api/v1/worklist/populate/worklist']));
    await waitFor(() =>
      expect(appStore.getState().toast).toMatchObject({
        kind: 'error',
        message: 'Old PACS: cannot be reached',
      }),
    );
  });

  it('summarises the counts in words', () => {
    expect(syncSummary(RESULT)).toBe('2 new studies, 1 updated');
    expect(syncSummary({ ...RESULT, added: 1, updated: 0, deleted: 3 })).toBe(
      '1 new study, 3 removed from the archive',
    );
    expect(syncSummary({ ...RESULT, added: 0, updated: 0 })).toBe('Nothing new in the archive');
  });
});
