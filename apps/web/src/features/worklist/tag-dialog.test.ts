// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement, type ReactElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../../stores/auth-store.ts';
import { ItemTags } from './item-tags.tsx';
import { canCreateTag, filterTags, TagDialog } from './tag-dialog.tsx';
import type { TItemTag } from './worklist-api.ts';
import { waitFor } from '../../test/dom.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const USER_ID = '7d1c2a44-3a55-4f10-9d7e-0b3c8a9e1f01';
const TEACHING = { id: 'tag-teaching', name: 'Teaching', colour: null };

type TCall = { method: string; path: string; body: unknown };
let calls: TCall[];
let nextTagId: number;
/** Tags created through the fake server, listed by later GETs as the real one does. */
let created: { id: string; name: string; colour: null }[];

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The tag routes as the server answers them, recording each call. */
async function fakeFetch(input: string, init: RequestInit): Promise<Response> {
  const path = new URL(input, 'http://app.test').pathname;
  const method = init.method ?? 'GET';
  const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
  calls.push({ method, path, body });
  if (method === 'GET' && path === '/api/v1/worklist/tag/all') {
    return json(200, {
      tags: [TEACHING, ...created],
      default_tags: [{ id: 'tag-review', name: 'Review', colour: null }],
    });
  }
  if (method === 'POST' && path === '/api/v1/worklist/tag') {
    nextTagId += 1;
    const tag = { id: `tag-new-${nextTagId}`, name: String(body?.name), colour: null };
    created.push(tag);
    return json(201, { ...tag, type: 'USER' });
  }
  if (method === 'POST' && path === '/api/v1/worklist/worklist-tag/many') return json(201, { items: [] });
  if (method === 'DELETE' && path.startsWith('/api/v1/worklist/worklist-tag/')) {
    return json(200, { id: path.split('/').pop(), deleted: true });
  }
  return json(404, { error: { code: 'NOT_FOUND', message: `no ${method} ${path}` } });
}

let root: Root;
let container: HTMLElement;

async function render(element: ReactElement): Promise<void> {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await act(async () => root.render(createElement(QueryClientProvider, { client: queryClient }, element)));
}

/** Waits (letting React work) until `condition` holds, failing with `what` after 2 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  await waitFor(() => {
    if (!condition()) throw new Error(`timed out waiting for ${what}`);
  });
}

const button = (text: string) =>
  [...document.querySelectorAll('button')].find((element) => element.textContent?.trim() === text) ?? null;
const checkbox = (label: string) =>
  [...document.querySelectorAll('label')]
    .find((element) => element.textContent?.trim() === label)
    ?.querySelector<HTMLInputElement>('input[type="checkbox"]') ?? null;
const click = (element: HTMLElement | null) =>
  act(async () => {
    if (!element) throw new Error('nothing to click');
    element.click();
  });

/** Types into a React-controlled input the way a browser does (value setter, then an input event). */
async function typeInto(input: HTMLInputElement | null, value: string): Promise<void> {
  if (!input) throw new Error('no input');
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

beforeEach(() => {
  calls = [];
  nextTagId = 0;
  created = [];
  vi.stubGlobal('fetch', fakeFetch);
  authStore.setState({ user: { id: USER_ID } as ReturnType<typeof authStore.getState>['user'] });
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
  document.body.innerHTML = '';
  authStore.getState().clear();
  vi.unstubAllGlobals();
});

describe('tag rules', () => {
  it('filters by name and allows a new name only when no tag has it', () => {
    const tags = [TEACHING, { id: 'b', name: 'Follow up', colour: null }];
    expect(filterTags(tags, ' teach ').map((tag) => tag.id)).toEqual(['tag-teaching']);
    expect(filterTags(tags, '')).toHaveLength(2);
    expect(canCreateTag(tags, 'FOLLOW UP')).toBe(false);
    expect(canCreateTag(tags, '   ')).toBe(false);
    expect(canCreateTag(tags, 'x'.repeat(61))).toBe(false);
    expect(canCreateTag(tags, 'Second read')).toBe(true);
  });
});

describe('TagDialog', () => {
  it('creates a new tag as the user, then applies it and an existing one to the selected studies', async () => {
    const applied: string[] = [];
    await render(
      createElement(TagDialog, {
        open: true,
        onOpenChange: () => undefined,
        worklistIds: ['w1', 'w2'],
        onApplied: (message: string) => applied.push(message),
      }),
    );
    await until(() => checkbox('Teaching') !== null, 'the tags');
    expect(checkbox('Review')).not.toBeNull();
    const search = document.querySelector<HTMLInputElement>('input[type="search"]');
    await typeInto(search, 'teaching');
    expect(button('Create tag')?.disabled).toBe(true);
    await typeInto(search, 'Second read');
    await click(button('Create tag'));
    await until(() => checkbox('Second read')?.checked === true, 'the new tag, chosen');
    expect(calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      path: '/api/v1/worklist/tag',
      body: { name: 'Second read', by_user_fk: USER_ID },
    });
    expect(search?.value).toBe('');

    await click(checkbox('Teaching'));
    await click(button('Apply 2 tags'));
    await until(() => applied.length === 1, 'applied');
    expect(calls.at(-1)).toEqual({
      method: 'POST',
      path: '/api/v1/worklist/worklist-tag/many',
      body: { worklist_ids: ['w1', 'w2'], tag_ids: ['tag-new-1', 'tag-teaching'] },
    });
    expect(applied[0]).toBe('Tagged 2 studies Second read, Teaching');
  });
});

describe('ItemTags', () => {
  it('shows an item’s tags and removes one by its worklist-tag id', async () => {
    const tags: TItemTag[] = [
      { id: 'wt-1', worklist_id: 'w1', tag: TEACHING },
      { id: 'wt-2', worklist_id: 'w1', tag: { id: 'tag-review', name: 'Review', colour: '#112233' } },
    ];
    await render(createElement(ItemTags, { tags, patientName: 'Asha Rao' }));
    const list = document.querySelector('ul[aria-label="Tags of Asha Rao"]');
    expect([...(list?.querySelectorAll('li') ?? [])].map((item) => item.textContent)).toEqual([
      'Teaching',
      'Review',
    ]);
    await click(
      document.querySelector<HTMLButtonElement>('button[aria-label="Remove tag Review from Asha Rao"]'),
    );
    await until(() => calls.length === 1, 'the removal');
    expect(calls[0]).toMatchObject({ method: 'DELETE', path: '/api/v1/worklist/worklist-tag/wt-2' });
  });
});
