// @vitest-environment happy-dom
import { NO_CAPABILITIES, type TManagedUser } from '@ris/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byName, click, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { authStore } from '../../stores/auth-store.ts';
import { FACILITY, ORG_ID, buildUser } from '../auth/test-support.ts';
import { fieldError, renderRoutes } from '../templates/test-app.tsx';
import { ProfilePage } from './profile-page.tsx';

const ME = buildUser({ radiologist_description: 'MD Radiology' });

type TRequest = { method: string; path: string; json: unknown; form: FormData | null };

function fakeServer(answer: (request: TRequest) => { status: number; body?: unknown }) {
  const requests: TRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const request = {
        method: init.method ?? 'GET',
        path: url.pathname,
        json: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
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

const saved = (patch: Partial<TManagedUser>): TManagedUser => ({
  ...ME,
  radiologist_details: { user_type: 'RADIOLOGIST', facility_fks: [FACILITY.id], description: 'MD Radiology' },
  transcriptionist_details: null,
  facility_details: null,
  signature_url: null,
  invitation_pending: false,
  last_sign_in_at: null,
  abilities: { edit: true, disable: false, reset_password: false, resend_invitation: false },
  ...patch,
  organisation_fk: ORG_ID,
});

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
});

async function open() {
  authStore.getState().setVerifiedUser({
    user: ME,
    roleDetails: {
      radiologist_details: {
        user_type: 'RADIOLOGIST',
        facility_fks: [FACILITY.id],
        description: 'MD Radiology',
      },
      transcriptionist_details: null,
      facility_details: null,
    },
    facilities: [FACILITY],
    capabilities: NO_CAPABILITIES,
  });
  view = await renderRoutes([{ path: '/profile', element: <ProfilePage /> }], '/profile');
}

const form = (name: string) => {
  const found = document.querySelector<HTMLFormElement>(`form[aria-label="${name}"]`);
  if (!found) throw new Error(`no form ${name}`);
  return found;
};

describe('profile', () => {
  it('saves only the changed details through POST /user for oneself and shows them at once', async () => {
    const requests = fakeServer((request) =>
      request.path === '/api/v1/user'
        ? {
            status: 200,
            body: { user: saved({ display_name: 'Dr A. Rao' }), created: false, invitation_sent: false },
          }
        : { status: 200, body: { min_length: 8, max_length: 1024, rules: [] } },
    );
    await open();
    const details = form('Your details');
    expect(byLabel<HTMLTextAreaElement>(details, 'Description').value).toBe('MD Radiology');
    const save = byName<HTMLButtonElement>(details, 'button', 'Save details');
    expect(save.disabled).toBe(true);
    await typeInto(byLabel(details, 'Display name'), 'Dr A. Rao');
    await click(save);
    await waitFor(() => expect(authStore.getState().user?.display_name).toBe('Dr A. Rao'));
    const post = requests.find((request) => request.method === 'POST');
    expect([...(post?.form?.entries() ?? [])]).toEqual([
      ['id', ME.id],
      ['by_user_id', ME.id],
      ['display_name', 'Dr A. Rao'],
    ]);
    expect(document.querySelector('[aria-label="Signature block preview"]')?.textContent).toContain(
      'Dr A. Rao',
    );
  });

  it('changes the password with the current one and shows a wrong one on its field', async () => {
    const requests = fakeServer((request) => {
      if (request.path !== '/api/v1/auth/password') {
        return { status: 200, body: { min_length: 8, max_length: 1024, rules: [] } };
      }
      const body = request.json as { current_password: string };
      return body.current_password === 'right-one'
        ? { status: 200, body: { message: 'Your password has been changed.' } }
        : {
            status: 400,
            body: {
              error: {
                code: 'VALIDATION_FAILED',
                message: 'The current password is not correct.',
                details: {
                  field: 'current_password',
                  fields: [{ field: 'current_password', message: 'The current password is not correct.' }],
                },
              },
            },
          };
    });
    await open();
    const password = form('Change password');
    const submit = byName(password, 'button', 'Change password');
    await typeInto(byLabel(password, 'New password'), 'a-new-passphrase');
    await typeInto(byLabel(password, 'Repeat the new password'), 'a-different-one');
    await click(submit);
    expect(fieldError(byLabel(password, 'Current password'))).toBe('Enter your current password');
    expect(fieldError(byLabel(password, 'Repeat the new password'))).toBe('The passwords do not match');
    expect(requests.filter((request) => request.path === '/api/v1/auth/password')).toEqual([]);

    await typeInto(byLabel(password, 'Current password'), 'wrong-one');
    await typeInto(byLabel(password, 'Repeat the new password'), 'a-new-passphrase');
    await click(submit);
    await waitFor(() =>
      expect(fieldError(byLabel(password, 'Current password'))).toBe('The current password is not correct.'),
    );
    await typeInto(byLabel(password, 'Current password'), 'right-one');
    await click(submit);
    await waitFor(() => expect(byLabel(password, 'Current password').value).toBe(''));
    expect(requests.filter((request) => request.path === '/api/v1/auth/password').map((r) => r.json)).toEqual(
      [
        { current_password: 'wrong-one', new_password: 'a-new-passphrase' },
        { current_password: 'right-one', new_password: 'a-new-passphrase' },
      ],
    );
  });
});
