// @vitest-environment happy-dom
import {
  NO_CAPABILITIES,
  NO_WORKLIST_ITEM_ABILITIES,
  type TBulkResult,
  type TUserCapabilities,
  type TWorklistItemAbilities,
} from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../stores/app-store.ts';
import { authStore } from '../../stores/auth-store.ts';
import { byName, click, render, waitFor, type Rendered } from '../../test/dom.tsx';
import { buildUser } from '../auth/test-support.ts';
import { BulkActions } from './bulk-actions.tsx';
import { bulkOutcome } from './bulk-outcome.ts';
import { buildItem } from '../../test/worklist-items.ts';

let view: Rendered | null = null;

afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
  appStore.getState().dismissToast();
});

function signIn(capabilities: Partial<TUserCapabilities>) {
  const user = buildUser();
  authStore.getState().setVerifiedUser({
    user,
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [],
    capabilities: { ...NO_CAPABILITIES, ...capabilities },
  });
  return user;
}

/** Answers every request with `body`, recording what was sent. */
function fakeApi(body: unknown) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      sent.push({
        method: init.method ?? 'GET',
        path: url.pathname,
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      });
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return sent;
}

/** The bar for two selected studies on which the server allows `abilities`. */
async function renderBar(abilities: Partial<TWorklistItemAbilities> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const selected = [1, 2].map((n) =>
    buildItem(n, { abilities: { ...NO_WORKLIST_ITEM_ABILITIES, ...abilities } }),
  );
  view = await render(
    <QueryClientProvider client={client}>
      <BulkActions selected={selected} onDone={() => undefined} />
    </QueryClientProvider>,
  );
  return view.container;
}

const buttons = (root: HTMLElement) =>
  Array.from(root.querySelectorAll('button')).map((button) => button.textContent?.trim());

describe('bulk actions', () => {
  it('offers a referring physician (no abilities, no capabilities) nothing at all', async () => {
    signIn({});
    const bar = await renderBar();
    expect(bar.querySelector('[role="toolbar"]')).toBeNull();
  });

  it('offers what the abilities allow, whatever the role: a dispatcher assigns anyone, a radiologist claims', async () => {
    signIn({ tag_studies: true });
    let bar = await renderBar({ assign_anyone: true, unassign: true, set_priority: true });
    expect(buttons(bar)).toEqual(['Assign', 'Unassign', 'Priority', 'Tag', 'Clear selection']);
    await view?.unmount();

    bar = await renderBar({ assign_self: true, delete: true });
    expect(buttons(bar)).toEqual(['Assign to me', 'Tag', 'Delete', 'Clear selection']);
  });

  it('warns, saying what was skipped and why, when a bulk action changed nothing', async () => {
    const user = signIn({});
    const reason = 'The radiologist does not work for this facility';
    const result: TBulkResult = {
      updated_worklists: [],
      skipped: [
        { id: buildItem(1).id, reason },
        { id: buildItem(2).id, reason },
      ],
    };
    const sent = fakeApi(result);
    const bar = await renderBar({ assign_self: true });
    await click(byName(bar, 'button', 'Assign to me'));
    await waitFor(() => expect(appStore.getState().toast).not.toBeNull());
    expect(sent[0]).toMatchObject({
      method: 'PUT',
      path: '/api/v1/worklist/assign/radiologist',
      body: { last_assigned_user_fk: user.id },
    });
    expect(appStore.getState().toast).toMatchObject({
      kind: 'warning',
      message: `Assigned 0 studies. 2 skipped: ${reason} (2)`,
    });
  });
});

describe('bulkOutcome', () => {
  it('is a success when nothing was skipped, and counts each reason once otherwise', () => {
    expect(bulkOutcome('Unassigned', { updated_worklists: [buildItem(1)], skipped: [] })).toEqual({
      kind: 'success',
      message: 'Unassigned 1 study',
    });
    expect(
      bulkOutcome('Unassigned', {
        updated_worklists: [buildItem(1)],
        skipped: [
          { id: buildItem(2).id, reason: 'A' },
          { id: buildItem(3).id, reason: 'B' },
          { id: buildItem(4).id, reason: 'A' },
        ],
      }),
    ).toEqual({ kind: 'warning', message: 'Unassigned 1 study. 3 skipped: A (2); B (1)' });
  });
});
