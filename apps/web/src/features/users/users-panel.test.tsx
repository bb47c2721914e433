// @vitest-environment happy-dom
import { NO_CAPABILITIES, ROLES, type TFacility, type TManagedUser, type TUserList } from '@ris/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byName, click, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { authStore } from '../../stores/auth-store.ts';
import { FACILITY, ORG_ID, buildUser } from '../auth/test-support.ts';
import { fieldError, renderRoutes } from '../templates/test-app.tsx';
import { UsersPanel } from './users-panel.tsx';

const LAKESIDE: TFacility = { ...FACILITY, id: '00000000-0000-4000-8000-0000000000f2', name: 'Lakeside' };
const ADMIN = buildUser({ id: '00000000-0000-4000-8000-0000000000a0', role: 'ADMIN', email: 'admin@x.test' });

function managed(patch: Partial<TManagedUser> = {}): TManagedUser {
  return {
    id: '00000000-0000-4000-8000-0000000000b1',
    email: 'neha@x.test',
    role: 'TRANSCRIPTIONIST',
    first_name: 'Neha',
    last_name: 'Joshi',
    display_name: 'Neha Joshi',
    status: 'ACTIVE',
    organisation_fk: ORG_ID,
    facility_fks: [LAKESIDE.id, FACILITY.id],
    user_type: null,
    radiologist_description: null,
    radiologist_details: null,
    transcriptionist_details: { facility_fks: [LAKESIDE.id, FACILITY.id] },
    facility_details: null,
    signature_url: null,
    invitation_pending: true,
    last_sign_in_at: null,
    created_at: '2026-11-20T08:00:00.000Z',
    updated_at: '2026-11-20T08:00:00.000Z',
    abilities: { edit: true, disable: true, reset_password: true, resend_invitation: true },
    ...patch,
  };
}

const page = (items: TManagedUser[]): TUserList => ({
  items,
  total: items.length,
  limit: 10,
  offset: 0,
  next_offset: null,
  previous_offset: null,
});

type TRequest = { method: string; path: string; form: FormData | null };

/** A fake fetch recording each request (multipart bodies as FormData) and answering from `answer`. */
function fakeServer(answer: (request: TRequest) => { status: number; body?: unknown }) {
  const requests: TRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const request = {
        method: init.method ?? 'GET',
        path: `${url.pathname}${url.search}`,
        form: init.body instanceof FormData ? init.body : null,
      };
      requests.push(request);
      const { status, body } = answer(request);
      return new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return requests;
}

const filter = (name: string) => {
  const select = document.querySelector<HTMLSelectElement>(`select[aria-label="${name}"]`);
  if (!select) throw new Error(`no ${name} filter`);
  return select;
};

/** The checkbox inside the <label> that reads `name`. */
const checkbox = (root: ParentNode, name: string) => {
  const label = Array.from(root.querySelectorAll('label')).find((l) => l.textContent?.trim() === name);
  const input = label?.querySelector('input');
  if (!input) throw new Error(`no checkbox ${name}`);
  return input;
};

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
});

async function open() {
  authStore.getState().setVerifiedUser({
    user: ADMIN,
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [FACILITY, LAKESIDE],
    // The roles an admin may give, as the server's users policy sends them.
    capabilities: { ...NO_CAPABILITIES, manage_users: true, assignable_roles: [...ROLES] },
  });
  view = await renderRoutes([{ path: '/organisation', element: <UsersPanel /> }], '/organisation');
}

describe('users tab', () => {
  it('lists the users with their facilities, role and invitation state, and filters on the server', async () => {
    // Facilities the caller does not manage are counted, not named.
    const elsewhere = ['00000000-0000-4000-8000-0000000000f8', '00000000-0000-4000-8000-0000000000f9'];
    const requests = fakeServer(() => ({
      status: 200,
      body: page([
        managed(),
        managed({
          id: '00000000-0000-4000-8000-0000000000b2',
          email: 'ravi@x.test',
          facility_fks: [FACILITY.id, ...elsewhere],
        }),
        managed({
          id: '00000000-0000-4000-8000-0000000000b3',
          email: 'omar@x.test',
          facility_fks: [elsewhere[0] ?? ''],
        }),
      ]),
    }));
    await open();
    const row = await waitFor(() => {
      const found = Array.from(document.querySelectorAll('tbody tr')).find((tr) =>
        tr.textContent?.includes('neha@x.test'),
      );
      if (!found) throw new Error('no row yet');
      return found;
    });
    expect(row.textContent).toContain('Transcriptionist');
    expect(row.textContent).toContain('City General Hospital, Lakeside');
    expect(row.textContent).toContain('Invited');
    const rowOf = (email: string) =>
      Array.from(document.querySelectorAll('tbody tr')).find((tr) => tr.textContent?.includes(email));
    expect(rowOf('ravi@x.test')?.textContent).toContain('City General Hospital, 2 others');
    expect(rowOf('omar@x.test')?.textContent).toMatch(/1 other(?!s)/);
    expect(requests[0]?.path).toBe('/api/v1/user?limit=10&offset=0');

    await typeInto(filter('Role'), 'RADIOLOGIST');
    await typeInto(filter('Status'), 'INACTIVE');
    await waitFor(() =>
      expect(requests.at(-1)?.path).toBe('/api/v1/user?limit=10&offset=0&role=RADIOLOGIST&status=INACTIVE'),
    );
  });

  it('shows the server’s message when the list cannot be loaded, and an empty state', async () => {
    fakeServer(() => ({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'Not yours to see' } } }));
    await open();
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toBe('Not yours to see'),
    );
    await view?.unmount();
    fakeServer(() => ({ status: 200, body: page([]) }));
    await open();
    await waitFor(() => expect(document.body.textContent).toContain('No users yet. Add the first one.'));
  });

  it('adds a user with a multipart POST /user and shows the field the server refuses', async () => {
    const requests = fakeServer((request) =>
      request.method === 'POST'
        ? {
            status: 409,
            body: {
              error: {
                code: 'CONFLICT',
                message: 'email: this address is already taken',
                details: { field: 'email' },
              },
            },
          }
        : { status: 200, body: page([]) },
    );
    await open();
    await click(byName(document.body, 'button', 'Add user'));
    const dialog = await waitFor(() => {
      const found = document.querySelector('[role="dialog"]');
      if (!found) throw new Error('no dialog');
      return found;
    });
    await typeInto(byLabel<HTMLSelectElement>(dialog, 'Role'), 'TRANSCRIPTIONIST');
    await typeInto(byLabel(dialog, 'First name'), 'Ravi');
    await typeInto(byLabel(dialog, 'Last name'), 'Kumar');
    await typeInto(byLabel(dialog, 'E-mail'), 'taken@x.test');
    await click(byName(dialog, 'button', 'Add and invite'));
    // The facility is checked before anything is sent.
    expect(dialog.textContent).toContain('Choose at least one facility');
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);

    await click(checkbox(dialog, 'Lakeside'));
    await click(byName(dialog, 'button', 'Add and invite'));
    await waitFor(() => expect(fieldError(byLabel(dialog, 'E-mail'))).toBe('This address is already taken'));
    const post = requests.find((request) => request.method === 'POST');
    expect(post?.path).toBe('/api/v1/user');
    expect([...(post?.form?.entries() ?? [])]).toEqual([
      ['by_user_id', ADMIN.id],
      ['organisation_fk', ORG_ID],
      ['role', 'TRANSCRIPTIONIST'],
      ['first_name', 'Ravi'],
      ['last_name', 'Kumar'],
      ['email', 'taken@x.test'],
      ['facility_fks', LAKESIDE.id],
    ]);
    expect(document.activeElement).toBe(byLabel(dialog, 'E-mail'));
  });

  it('offers edit only when the user’s abilities allow it', async () => {
    fakeServer(() => ({
      status: 200,
      body: page([
        managed(),
        managed({
          id: '00000000-0000-4000-8000-0000000000b2',
          display_name: 'Other Admin',
          email: 'other@x.test',
          abilities: { edit: false, disable: false, reset_password: false, resend_invitation: false },
        }),
      ]),
    }));
    await open();
    await waitFor(() => byName(document.body, 'button', 'Neha Joshi'));
    expect(() => byName(document.body, 'button', 'Other Admin')).toThrow();
    expect(() => byName(document.body, 'button', 'Actions for Other Admin')).toThrow();
    byName(document.body, 'button', 'Actions for Neha Joshi');
  });
});
