// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TAuthConfig } from '@ris/domain';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byName, click, render, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { TooltipProvider } from '../../components/ui/tooltip.tsx';
import { authStore } from '../../stores/auth-store.ts';
import { LoginPage } from './login-page.tsx';
import { SignupPage } from './signup-page.tsx';

type Answer = { status: number; body?: unknown };

const CONFIG: TAuthConfig = {
  signup_enabled: true,
  email_link_enabled: false,
  providers: ['password'],
};
const POLICY = { min_length: 8, max_length: 1024, rules: ['At least 8 characters'] };

/** Answers the app's fetches by "METHOD /path"; anything else is a 404. */
function stubServer(answers: Record<string, Answer>): { paths: string[] } {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const key = `${init.method ?? 'GET'} ${new URL(input, 'http://localhost').pathname}`;
      paths.push(key);
      const { status, body } = answers[key] ?? {
        status: 404,
        body: { error: { code: 'NOT_FOUND', message: key } },
      };
      return new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return { paths };
}

let view: Rendered | null = null;

afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
});

async function open(path: string): Promise<HTMLElement> {
  const router = createMemoryRouter(
    [
      { path: '/signup', element: <SignupPage /> },
      { path: '/login', element: <LoginPage /> },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  view = await render(
    <QueryClientProvider client={client}>
      <TooltipProvider>
        <RouterProvider router={router} />
      </TooltipProvider>
    </QueryClientProvider>,
  );
  return view.container;
}

describe('sign-up page', () => {
  it('says sign-up is closed, and who creates accounts, when the server has it off', async () => {
    stubServer({ 'GET /api/v1/auth/config': { status: 200, body: { ...CONFIG, signup_enabled: false } } });
    const page = await open('/signup');
    await waitFor(() => expect(page.textContent).toContain('Sign-up is closed'));
    expect(page.textContent).toContain("Ask your group's RIS administrator to add you.");
    expect(page.querySelector('form')).toBeNull();
  });

  it('after sign-up, says the account needs an administrator to add it to an organisation', async () => {
    const server = stubServer({
      'GET /api/v1/auth/config': { status: 200, body: CONFIG },
      'GET /api/v1/auth/password-policy': { status: 200, body: POLICY },
      'POST /api/v1/auth/sign-up': { status: 201, body: { message: 'created' } },
    });
    const page = await open('/signup');
    await waitFor(() => byLabel(page, 'First name'));
    await typeInto(byLabel(page, 'First name'), 'New');
    await typeInto(byLabel(page, 'Last name'), 'Person');
    await typeInto(byLabel(page, 'Email'), 'new.person@example.test');
    await typeInto(byLabel(page, 'Password'), 'a-good-password');
    await click(byName(page, 'button', 'Create account'));
    await waitFor(() => expect(page.textContent).toContain('Account created'));
    expect(server.paths).toContain('POST /api/v1/auth/sign-up');
    expect(page.querySelector('[role="status"]')?.textContent).toBe(
      "Your account was created. An administrator of your group must add you to an organisation before you can sign in — ask your group's RIS administrator.",
    );
  });
});

describe('sign-in page notices', () => {
  async function signInWith(answers: Record<string, Answer>): Promise<HTMLElement> {
    stubServer({ 'GET /api/v1/auth/config': { status: 200, body: CONFIG }, ...answers });
    authStore.getState().setFlag('isAuthInitializing', false);
    const page = await open('/login');
    await waitFor(() => byLabel(page, 'Email'));
    await typeInto(byLabel(page, 'Email'), 'someone@example.test');
    await typeInto(byLabel(page, 'Password'), 'a-password');
    await click(byName(page, 'button', 'Sign in'));
    return page;
  }

  it('shows how long to wait after too many failed attempts', async () => {
    const page = await signInWith({
      'POST /api/v1/auth/sign-in': {
        status: 429,
        body: {
          error: {
            code: 'auth/too-many-requests',
            message: 'Too many failed attempts. Please try again in 2 minutes.',
            details: { retry_after_seconds: 95 },
          },
        },
      },
    });
    await waitFor(() =>
      expect(page.querySelector('[role="alert"]')?.textContent).toBe(
        'Too many failed attempts. Please try again in 2 minutes.',
      ),
    );
  });

  it('keeps saying why a signed-up account without an organisation cannot sign in, and who to ask', async () => {
    const orphan = {
      id: '00000000-0000-4000-8000-0000000000a9',
      email: 'someone@example.test',
      role: null,
      first_name: 'New',
      last_name: 'Person',
      display_name: 'New Person',
      status: 'ACTIVE',
      organisation_fk: null,
      facility_fks: [],
      user_type: null,
      radiologist_description: null,
      staff_kind: null,
      has_signature: false,
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
    };
    const page = await signInWith({
      'POST /api/v1/auth/sign-in': {
        status: 200,
        body: { id_token: 'header.e30.sig', refresh_token: 'r', expires_in: 3600, user: orphan },
      },
      'GET /api/v1/user/email/someone%40example.test': { status: 200, body: orphan },
      'POST /api/v1/auth/sign-out': { status: 200, body: { message: 'ok' } },
    });
    await waitFor(() =>
      expect(page.querySelector('[role="alert"]')?.textContent).toBe(
        "Your account is not assigned to any organisation yet. An administrator of your group must add you to an organisation before you can sign in — ask your group's RIS administrator.",
      ),
    );
  });
});
