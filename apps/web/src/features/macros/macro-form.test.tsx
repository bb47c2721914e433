// @vitest-environment happy-dom
import type { TMacro } from '@ris/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byName, click, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { authStore } from '../../stores/auth-store.ts';
import { fakeApi, fieldError, renderRoutes, signIn, typeInEditor } from '../templates/test-app.tsx';
import { MacroPage } from './macro-page.tsx';
import { MacrosPage } from './macros-page.tsx';

const MACRO_ID = '00000000-0000-4000-8000-0000000000d1';

function macro(patch: Partial<TMacro> = {}): TMacro {
  return {
    id: MACRO_ID,
    short_key: 'nad',
    value: '<p>No abnormality detected.</p>',
    user_fk: '00000000-0000-4000-8000-0000000000a1',
    display_name: 'Normal',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    abilities: { change: true },
    ...patch,
  };
}

let view: Rendered | null = null;

afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
});

async function open(path: string) {
  const rendered = await renderRoutes(
    [
      { path: '/macro/:id', element: <MacroPage /> },
      { path: '/macros', element: <MacrosPage /> },
    ],
    path,
  );
  view = rendered;
  return rendered;
}

describe('macro form', () => {
  it('rejects a short key with a space before sending anything', async () => {
    signIn();
    const api = fakeApi(() => ({ status: 500 }));
    const page = await open('/macro/new');
    await typeInto(byLabel(page.container, 'Short key'), 'ab c');
    await typeInEditor(page.container, 'Macro value', 'Normal study.');
    await click(byName(page.container, 'button', 'Create macro'));
    expect(fieldError(byLabel(page.container, 'Short key'))).toBe(
      'Short key may contain letters and digits only',
    );
    expect(api.requests).toEqual([]);
  });

  it('creates a macro for the signed-in user and shows a duplicate short key (409) on its field', async () => {
    const user = signIn();
    const api = fakeApi(() => ({
      status: 409,
      body: {
        error: {
          code: 'CONFLICT',
          message: 'You already have a macro with the short key nad',
          details: { field: 'short_key' },
        },
      },
    }));
    const page = await open('/macro/new');
    await typeInto(byLabel(page.container, 'Short key'), 'nad');
    await typeInto(byLabel(page.container, 'Display name'), 'Normal');
    await typeInEditor(page.container, 'Macro value', 'No abnormality detected.');
    await click(byName(page.container, 'button', 'Create macro'));

    await waitFor(() =>
      expect(fieldError(byLabel(page.container, 'Short key'))).toBe(
        'You already have a macro with the short key nad',
      ),
    );
    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: '/api/v1/radiologist/macro',
        body: {
          short_key: 'nad',
          value: '<p>No abnormality detected.</p>',
          user_fk: user.id,
          display_name: 'Normal',
        },
      },
    ]);
  });

  it('edits a macro from the user’s list with PATCH', async () => {
    const user = signIn();
    const api = fakeApi((request) =>
      request.method === 'GET'
        ? { status: 200, body: { items: [macro()] } }
        : { status: 200, body: macro({ short_key: 'nad2' }) },
    );
    const page = await open(`/macro/${MACRO_ID}`);
    await waitFor(() => expect(byLabel(page.container, 'Short key').value).toBe('nad'));
    expect(api.requests[0]?.path).toBe(`/api/v1/radiologist/macros/${user.id}`);
    await typeInto(byLabel(page.container, 'Short key'), 'nad2');
    await click(byName(page.container, 'button', 'Save macro'));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]).toEqual({
      method: 'PATCH',
      path: `/api/v1/radiologist/macro/${MACRO_ID}`,
      body: { short_key: 'nad2', value: '<p>No abnormality detected.</p>', display_name: 'Normal' },
    });
  });

  it('lists macros with a plain-text preview and filters them on the client', async () => {
    signIn();
    fakeApi(() => ({
      status: 200,
      body: {
        items: [
          macro(),
          macro({
            id: '00000000-0000-4000-8000-0000000000d2',
            short_key: 'cxr',
            display_name: null,
            value: '<p>Lungs <strong>clear</strong>.</p>',
          }),
        ],
      },
    }));
    const page = await open('/macros');
    await waitFor(() => expect(page.container.querySelectorAll('tbody tr')).toHaveLength(2));
    expect(page.container.querySelector('tbody')?.textContent).toContain('Lungs clear.');
    await typeInto(byName<HTMLInputElement>(page.container, 'input', 'Search macros'), 'LUNG');
    await waitFor(() => expect(page.container.querySelectorAll('tbody tr')).toHaveLength(1));
    expect(page.container.querySelector('tbody tr')?.textContent).toContain('cxr');
  });
});
