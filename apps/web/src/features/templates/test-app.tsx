// Test harness of the templates and macros screens (happy-dom): a signed-in user, a fresh query
// cache, an in-memory router, and a fake fetch that records each request and answers from a script.
import { NO_CAPABILITIES, type TUser, type TUserCapabilities } from '@ris/domain';
import type { Editor } from '@tiptap/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, type ReactNode } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { render, type Rendered } from '../../test/dom.tsx';
import { authStore } from '../../stores/auth-store.ts';
import { buildUser } from '../auth/test-support.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

export type Answer = { status: number; body?: unknown };

/** Replaces the global fetch: every call is recorded; `answer` decides the response. */
export function fakeApi(answer: (request: RecordedRequest) => Answer) {
  const requests: RecordedRequest[] = [];
  const fetchMock = vi.fn(async (input: string, init: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    };
    requests.push(request);
    const { status, body } = answer(request);
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requests, writes: () => requests.filter((request) => request.method !== 'GET') };
}

/** Signs a user in with what the server would say they may do at all (default: nothing). */
export function signIn(patch: Partial<TUser> = {}, capabilities: Partial<TUserCapabilities> = {}): TUser {
  const user = buildUser(patch);
  authStore.getState().setVerifiedUser({
    user,
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [],
    capabilities: { ...NO_CAPABILITIES, ...capabilities },
  });
  return user;
}

/** Renders `routes` at `path` inside the providers the screens need; `location()` is the current path. */
export async function renderRoutes(
  routes: { path: string; element: ReactNode }[],
  path: string,
): Promise<Rendered & { location: () => string }> {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const rendered = await render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...rendered, location: () => router.state.location.pathname };
}

/** Types into a TipTap editor found by its aria-label (TipTap keeps the instance on its element). */
export async function typeInEditor(root: ParentNode, ariaLabel: string, text: string): Promise<void> {
  const element = root.querySelector(`[aria-label="${ariaLabel}"]`) as
    (HTMLElement & { editor?: Editor }) | null;
  if (!element?.editor) throw new Error(`No editor labelled "${ariaLabel}"`);
  const { editor } = element;
  await act(async () => {
    editor.chain().focus('end').insertContent(text).run();
  });
}

/** The error text an input shows (through its aria-describedby). */
export function fieldError(input: HTMLElement): string | null {
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  for (const id of ids) {
    const element = document.getElementById(id);
    if (id.endsWith('-error') && element) return element.textContent;
  }
  return null;
}
