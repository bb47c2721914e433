// @vitest-environment happy-dom
import { NO_CAPABILITIES, type TReferringPhysician, type TReferringPhysicianList } from '@ris/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../../stores/auth-store.ts';
import { byLabel, byName, click, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { FACILITY, ORG_ID, buildUser } from '../auth/test-support.ts';
import {
  fakeApi,
  fieldError,
  renderRoutes,
  type Answer,
  type RecordedRequest,
} from '../templates/test-app.tsx';
import { ReferringPhysiciansPanel } from './referring-physicians-panel.tsx';

function physician(patch: Partial<TReferringPhysician> = {}): TReferringPhysician {
  return {
    id: '00000000-0000-4000-8000-0000000000d1',
    organisation_fk: ORG_ID,
    user_fk: null,
    name: 'Dr Meera Iyer',
    email: 'meera@clinic.test',
    phone: null,
    registration_number: 'KMC-1234',
    status: 'ACTIVE',
    facility_fks: [],
    sign_in: 'NOT_INVITED',
    created_at: '2026-11-01T08:00:00.000Z',
    updated_at: '2026-11-01T08:00:00.000Z',
    abilities: { edit: true, invite: true },
    ...patch,
  };
}

function page(items: TReferringPhysician[], total = items.length): TReferringPhysicianList {
  return { items, total, limit: 10, offset: 0, next_offset: total > 10 ? 10 : null, previous_offset: null };
}

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
});

function signInAdmin() {
  authStore.getState().setVerifiedUser({
    user: buildUser({ role: 'ADMIN', facility_fks: [] }),
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [FACILITY],
    capabilities: { ...NO_CAPABILITIES, create_order: true },
  });
}

/** Lists answer `list`; writes answer `write`. */
function api(
  list: (request: RecordedRequest) => Answer,
  write: (request: RecordedRequest) => Answer = () => ({ status: 500 }),
) {
  return fakeApi((request) => (request.method === 'GET' ? list(request) : write(request)));
}

async function open() {
  view = await renderRoutes([{ path: '/', element: <ReferringPhysiciansPanel /> }], '/');
}

const text = () => document.body.textContent ?? '';

/** A control named by its aria-label, or a checkbox inside the <label> that reads `name`. */
function control<T extends HTMLElement>(name: string): T {
  const labelled = document.querySelector<T>(`[aria-label="${name}"]`);
  if (labelled) return labelled;
  const wrapping = Array.from(document.querySelectorAll('label')).find((l) => l.textContent?.trim() === name);
  const input = wrapping?.querySelector<T>('input');
  if (!input) throw new Error(`No control named "${name}"`);
  return input;
}

describe('ReferringPhysiciansPanel', () => {
  it('lists physicians with their facilities and sign-in state, and filters on the server', async () => {
    signInAdmin();
    const calls = api(() => ({
      status: 200,
      body: page([
        physician(),
        physician({
          id: '00000000-0000-4000-8000-0000000000d2',
          name: 'Dr Arjun Reddy',
          facility_fks: [FACILITY.id],
          sign_in: 'INVITED',
          abilities: { edit: false, invite: false },
        }),
      ]),
    }));
    await open();
    await waitFor(() => expect(text()).toContain('Dr Arjun Reddy'));
    expect(text()).toContain('All facilities');
    expect(text()).toContain(FACILITY.name);
    expect(text()).toContain('Not invited');
    expect(text()).toContain('Invited');
    expect(() => byName(document.body, 'button', 'Edit Dr Arjun Reddy')).toThrow();
    byName(document.body, 'button', 'Edit Dr Meera Iyer');

    await typeInto(control<HTMLSelectElement>('Facility'), FACILITY.id);
    await waitFor(() => expect(calls.requests.at(-1)?.path).toContain(`facility_fks=${FACILITY.id}`));
    expect(calls.requests.at(-1)?.path).toContain('limit=10');
  });

  it('shows the empty state, and the server’s message when the list fails', async () => {
    signInAdmin();
    let fail = false;
    api(() =>
      fail
        ? { status: 500, body: { error: { code: 'INTERNAL', message: 'The database is not reachable' } } }
        : { status: 200, body: page([]) },
    );
    await open();
    await waitFor(() => expect(text()).toContain('No referring physicians yet'));
    await view?.unmount();
    fail = true;
    await open();
    await waitFor(() => expect(text()).toContain('The database is not reachable'));
  });

  it('creates a physician and shows the server’s refusal on the field it names', async () => {
    signInAdmin();
    let attempt = 0;
    const calls = api(
      () => ({ status: 200, body: page([]) }),
      (request) => {
        attempt += 1;
        return attempt === 1
          ? {
              status: 400,
              body: {
                error: {
                  code: 'VALIDATION_FAILED',
                  message: 'Invalid request. email: Invalid email address',
                  details: { fields: [{ field: 'email', message: 'Invalid email address' }] },
                },
                detail: 'Invalid request. email: Invalid email address',
              },
            }
          : { status: 201, body: physician({ ...(request.body as object) }) };
      },
    );
    await open();
    await click(await waitFor(() => byName(document.body, 'button', 'New referring physician')));
    await click(byName(document.body, 'button', 'Create'));
    expect(fieldError(byLabel(document.body, 'Name'))).toBe('Enter the name');
    expect(calls.writes()).toEqual([]);

    await typeInto(byLabel(document.body, 'Name'), 'Dr Meera Iyer');
    await typeInto(byLabel(document.body, 'E-mail'), 'meera@');
    await click(byName(document.body, 'button', 'Create'));
    await waitFor(() => expect(fieldError(byLabel(document.body, 'E-mail'))).toBe('Invalid email address'));
    expect(calls.writes()[0]).toMatchObject({
      method: 'POST',
      path: '/api/v1/user/referring-physician',
      body: { name: 'Dr Meera Iyer', email: 'meera@', phone: null, facility_fks: [], status: 'ACTIVE' },
    });

    await typeInto(byLabel(document.body, 'E-mail'), 'meera@clinic.test');
    await click(control(FACILITY.name));
    await click(byName(document.body, 'button', 'Create'));
    await waitFor(() => expect(calls.writes()).toHaveLength(2));
    expect(calls.writes()[1]?.body).toMatchObject({
      email: 'meera@clinic.test',
      facility_fks: [FACILITY.id],
    });
    await waitFor(() => expect(() => byName(document.body, 'button', 'Create')).toThrow());
  });

  it('invites a physician to sign in where the server allows it', async () => {
    signInAdmin();
    const calls = api(
      () => ({ status: 200, body: page([physician()]) }),
      () => ({
        status: 200,
        body: {
          physician: physician({ sign_in: 'INVITED', user_fk: '00000000-0000-4000-8000-0000000000a9' }),
          sent: true,
          expires_at: '2026-12-01T08:00:00.000Z',
        },
      }),
    );
    await open();
    await click(await waitFor(() => byName(document.body, 'button', 'Invite to sign in Dr Meera Iyer')));
    expect(text()).toContain('meera@clinic.test');
    await click(byName(document.body, 'button', 'Send invitation'));
    await waitFor(() => expect(calls.writes()).toHaveLength(1));
    expect(calls.writes()[0]?.path).toBe(
      '/api/v1/user/referring-physician/00000000-0000-4000-8000-0000000000d1/invitation',
    );
    await waitFor(() => expect(() => byName(document.body, 'button', 'Send invitation')).toThrow());
  });
});
