// @vitest-environment happy-dom
import { NO_CAPABILITIES } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../stores/app-store.ts';
import { authStore } from '../../stores/auth-store.ts';
import { byName, click, render, waitFor, type Rendered } from '../../test/dom.tsx';
import { buildUser } from '../auth/test-support.ts';
import { buildItem } from '../../test/worklist-items.ts';
import { ArchiveDeleteHost } from './archive-delete-host.tsx';
import { archiveDeleteRequest } from './archive-delete-request.ts';

let view: Rendered | null = null;
afterEach(async () => {
  act(() => archiveDeleteRequest.close());
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
  appStore.getState().dismissToast();
});

function fakeApi(status: number, body: unknown) {
  const sent: { method: string; url: URL }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      sent.push({ method: init.method ?? 'GET', url: new URL(input, 'http://localhost') });
      return Response.json(body, { status });
    }),
  );
  return sent;
}

async function ask() {
  const user = buildUser();
  authStore.getState().setVerifiedUser({
    user,
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [],
    capabilities: NO_CAPABILITIES,
  });
  const item = buildItem(1, { study_uid: '1.2.840.7', patient_name: 'Asha Rao', study: 'CT Chest' });
  view = await render(
    <QueryClientProvider client={new QueryClient()}>
      <ArchiveDeleteHost />
    </QueryClientProvider>,
  );
  act(() => archiveDeleteRequest.ask(item));
  const dialog = await waitFor(() => {
    const found = document.body.querySelector<HTMLElement>('[role="dialog"]');
    if (!found) throw new Error('no dialog yet');
    return found;
  });
  return { user, item, dialog };
}

describe('Delete from archive', () => {
  it('names the patient and the study, then deletes by the study UID as the signed-in user', async () => {
    const sent = fakeApi(200, {
      study_uid: '1.2.840.7',
      worklist_ids: [],
      archive_deleted_at: '2026-01-01T00:00:00Z',
    });
    const { user, dialog } = await ask();
    expect(dialog.textContent).toContain('Delete this study from the archive?');
    expect(dialog.textContent).toContain('Asha Rao');
    expect(dialog.textContent).toContain('CT Chest');
    await click(byName(dialog, 'button', 'Delete from archive'));
    await waitFor(() => expect(document.body.querySelector('[role="dialog"]')).toBeNull());
    expect(sent[0]?.method).toBe('DELETE');
    expect(sent[0]?.url.pathname).toBe('/api/v1/dicom/delete-study');
    expect(Object.fromEntries(sent[0]?.url.searchParams ?? [])).toEqual({
      study_uid: '1.2.840.7',
      by_user_id: user.id,
    });
    expect(appStore.getState().toast).toMatchObject({ kind: 'success' });
  });

  it('shows the server’s message and stays open when the archive is down', async () => {
    const message = 'The image archive "Main" cannot be reached right now; nothing was changed.';
    fakeApi(503, { error: { code: 'ARCHIVE_UNAVAILABLE', message } });
    const { dialog } = await ask();
    await click(byName(dialog, 'button', 'Delete from archive'));
    await waitFor(() => expect(appStore.getState().toast).toMatchObject({ kind: 'error', message }));
    expect(document.body.querySelector('[role="dialog"]')).not.toBeNull();
  });
});
