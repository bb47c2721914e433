// @vitest-environment happy-dom
import type { TNotification, TNotificationList } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationBell } from './notification-bell.tsx';
import { waitFor } from '../../test/dom.tsx';
import { liveConnection } from '../realtime/live-connection.fake.ts';

// React's act() warnings are meant for test environments like this one.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const USER_ID = '7d1c2a44-3a55-4f10-9d7e-0b3c8a9e1f01';
const STUDY_ID = '5a6b7c8d-1e2f-4a3b-8c9d-0e1f2a3b4c5d';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const note = (n: number, extra: Partial<TNotification> = {}): TNotification => ({
  id: uuid(n),
  type: 'worklist-assigned',
  title: `Title ${n}`,
  body: `Patient ${n} — CT Head`,
  data: null,
  is_read: false,
  created_at: new Date(Date.now() - n * 60_000).toISOString(),
  ...extra,
});

/** The server side of the test: the notifications GET answers and every PUT body it received. */
type TServer = {
  list: TNotificationList;
  puts: unknown[];
  /** When set, PUTs wait for this before answering (to see the optimistic state). */
  hold: Promise<void> | null;
  failPut: boolean;
};
let server: TServer;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

async function fakeFetch(input: string, init: RequestInit): Promise<Response> {
  const url = new URL(input, 'http://app.test');
  if (init.method === 'GET' && url.pathname === `/api/v1/notification/${USER_ID}`) {
    return json(200, server.list);
  }
  if (init.method === 'PUT' && url.pathname === '/api/v1/notification/read') {
    server.puts.push(JSON.parse(String(init.body)));
    if (server.hold) await server.hold;
    if (server.failPut) return json(500, { error: { code: 'INTERNAL', message: 'Database down' } });
    return json(200, { updated_ids: [], unread_count: 0 });
  }
  return json(404, { error: { code: 'NOT_FOUND', message: `no ${init.method} ${url.pathname}` } });
}

let root: Root;
let container: HTMLElement;
let live: ReturnType<typeof liveConnection>;

function Where() {
  return createElement('output', { 'data-testid': 'path' }, useLocation().pathname);
}

async function render(): Promise<void> {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const shell = createElement(
    'div',
    null,
    createElement(NotificationBell, { userId: USER_ID, live: live.connection }),
    createElement(Where),
  );
  await act(async () => {
    root.render(
      createElement(
        QueryClientProvider,
        { client: queryClient },
        createElement(
          MemoryRouter,
          { initialEntries: ['/'] },
          createElement(Routes, null, createElement(Route, { path: '*', element: shell })),
        ),
      ),
    );
  });
}

/** Waits (letting React work) until `condition` holds, failing with `what` after waitFor's limit. */
async function until(condition: () => boolean, what: string): Promise<void> {
  await waitFor(() => {
    if (!condition()) throw new Error(`timed out waiting for ${what}`);
  });
}

const bell = () => document.querySelector<HTMLButtonElement>('button[aria-label^="Notifications"]');
const badge = () => document.querySelector('[data-testid="notification-count"]')?.textContent ?? null;
const rows = () => [...document.querySelectorAll<HTMLButtonElement>('[data-notification-id]')];
const row = (id: string) => document.querySelector<HTMLButtonElement>(`[data-notification-id="${id}"]`);
const path = () => document.querySelector('[data-testid="path"]')?.textContent;
const click = (element: HTMLElement | null) =>
  act(async () => {
    if (!element) throw new Error('nothing to click');
    element.click();
  });

async function openPopover(): Promise<void> {
  await click(bell());
  await until(
    () => document.querySelector('[role="dialog"][aria-label="Notifications"]') !== null,
    'popover',
  );
}

beforeEach(() => {
  server = {
    list: {
      items: [note(1), note(2, { is_read: true }), note(3, { data: { worklist_id: STUDY_ID } })],
      total: 3,
      unread_count: 2,
      limit: 20,
      offset: 0,
      next_offset: null,
      previous_offset: null,
    },
    puts: [],
    hold: null,
    failPut: false,
  };
  vi.stubGlobal('fetch', fakeFetch);
  live = liveConnection();
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(async () => {
  await act(async () => root.unmount());
  live.connection.close();
  container.remove();
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('NotificationBell', () => {
  it('reads the notifications again when a reconnection has rejoined its topics', async () => {
    await render();
    await until(() => badge() === '2', 'the unread count');
    // Sent while the connection was down: no message came, the reconnection reads it.
    server.list = { ...server.list, items: [note(4), ...server.list.items], total: 4, unread_count: 3 };
    await live.reconnect();
    await until(() => badge() === '3', 'the notifications read again');
  });

  it('shows the unread count, and a live notification prepends and bumps it', async () => {
    await render();
    await until(() => badge() === '2', 'the unread count');
    expect(bell()?.getAttribute('aria-label')).toBe('Notifications, 2 unread');
    await openPopover();
    expect(rows().map((element) => element.dataset.notificationId)).toEqual([uuid(1), uuid(2), uuid(3)]);
    expect(rows()[1]?.dataset.read).toBe('true');

    // As the server sends it: no is_read (a new notification is unread).
    const assigned = {
      id: uuid(9),
      type: 'worklist-assigned',
      title: 'A study was assigned to you',
      body: 'Asha Rao — MRI Brain',
      data: { worklist_id: STUDY_ID },
      created_at: new Date().toISOString(),
    };
    await live.deliver({ type: 'user-notification', data: { notification: assigned } });
    // TanStack Query tells React on its next tick: wait for the row, then look.
    await until(() => rows()[0]?.dataset.notificationId === uuid(9), 'the live notification');
    expect(badge()).toBe('3');
    expect(rows()[0]?.textContent).toContain('A study was assigned to you');
    expect(rows()[0]?.textContent).toContain('Asha Rao — MRI Brain');
    expect(rows()[0]?.textContent).toContain('just now');
    // The same message again (e.g. after a refetch) is not counted twice; other types are ignored.
    await live.deliver({ type: 'user-notification', data: { notification: assigned } });
    await live.deliver({ type: 'worklist-status-update', data: { action: 'delete', id: 'x' } });
    await live.deliver({
      type: 'user-notification',
      data: { notification: { ...note(10), created_at: new Date().toISOString() } },
    });
    await until(() => rows()[0]?.dataset.notificationId === uuid(10), 'the next live notification');
    expect(badge()).toBe('4');
    expect(rows().filter((element) => element.dataset.notificationId === uuid(9))).toHaveLength(1);
  });

  it('marks a notification read at once when chosen, and opens the study it is about', async () => {
    let release: () => void = () => undefined;
    server.hold = new Promise((resolve) => (release = resolve));
    await render();
    await until(() => badge() === '2', 'the unread count');
    await openPopover();
    await click(row(uuid(3)));
    // Optimistic: read and counted before the server answered.
    expect(server.puts).toEqual([{ notification_ids: [uuid(3)] }]);
    expect(badge()).toBe('1');
    expect(path()).toBe(`/worklist/${STUDY_ID}`);
    release();
    await until(() => bell()?.getAttribute('aria-label') === 'Notifications, 1 unread', 'settled');

    // A notification without a study marks read and stays on the page.
    await openPopover();
    await click(row(uuid(1)));
    await until(() => badge() === null, 'no unread left');
    expect(row(uuid(1))?.dataset.read).toBe('true');
    expect(path()).toBe(`/worklist/${STUDY_ID}`);
    // Choosing a read one sends nothing.
    await click(row(uuid(2)));
    expect(server.puts).toHaveLength(2);
  });

  it('marks all read, and restores the count when the server refuses', async () => {
    server.failPut = true;
    await render();
    await until(() => badge() === '2', 'the unread count');
    await openPopover();
    const markAll = [...document.querySelectorAll('button')].find((b) =>
      b.textContent?.includes('Mark all read'),
    );
    await click(markAll ?? null);
    expect(server.puts).toEqual([{ all: true }]);
    await until(() => badge() === '2' && row(uuid(1))?.dataset.read === 'false', 'rolled back');

    server.failPut = false;
    await click(markAll ?? null);
    await until(() => badge() === null, 'all read');
    expect(rows().every((element) => element.dataset.read === 'true')).toBe(true);
    expect(markAll?.hasAttribute('disabled')).toBe(true);
  });
});
