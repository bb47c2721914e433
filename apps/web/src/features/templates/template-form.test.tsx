// @vitest-environment happy-dom
import type { TTemplate } from '@ris/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byName, click, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { authStore } from '../../stores/auth-store.ts';
import { TemplatePage } from './template-page.tsx';
import { fakeApi, fieldError, renderRoutes, signIn, typeInEditor } from './test-app.tsx';

const TEMPLATE_ID = '00000000-0000-4000-8000-0000000000e1';

function template(patch: Partial<TTemplate> = {}): TTemplate {
  return {
    id: TEMPLATE_ID,
    name: 'Normal chest CT',
    scope: 'USER',
    modality: 'CT',
    body_part: 'Chest',
    content: '<p>Lungs are clear.</p>',
    status: 'ACTIVE',
    organisation_id: '00000000-0000-4000-8000-000000000001',
    owner_user_id: '00000000-0000-4000-8000-0000000000a1',
    created_by: '00000000-0000-4000-8000-0000000000a1',
    created_by_display_name: 'Dr Asha Rao',
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

async function openTemplate(path: string) {
  const rendered = await renderRoutes(
    [
      { path: '/template/:id', element: <TemplatePage /> },
      { path: '/templates', element: <p>Template list</p> },
    ],
    path,
  );
  view = rendered;
  return rendered;
}

describe('template form', () => {
  it('checks the name before sending, then posts the fields and shows a 400 field error inline', async () => {
    signIn();
    const api = fakeApi(() => ({
      status: 400,
      body: {
        error: {
          code: 'VALIDATION_FAILED',
          message: 'Invalid request. body_part: Too long',
          details: { fields: [{ field: 'body_part', message: 'Too long' }] },
        },
      },
    }));
    const page = await openTemplate('/template/new');
    const form = page.container;

    await click(byName(form, 'button', 'Create template'));
    expect(fieldError(byLabel(form, 'Name'))).toBe('Name is required');
    expect(api.writes()).toEqual([]);

    await typeInto(byLabel(form, 'Name'), '  Chest CT  ');
    await typeInto(byLabel<HTMLSelectElement>(form, 'Modality'), 'CT');
    await typeInto(byLabel(form, 'Body part'), 'Chest');
    await typeInEditor(form, 'Template content', 'No focal lesion.');
    await click(byName(form, 'button', 'Create template'));

    await waitFor(() => expect(fieldError(byLabel(form, 'Body part'))).toBe('Too long'));
    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: '/api/v1/radiologist/template',
        body: {
          name: 'Chest CT',
          scope: 'USER',
          modality: 'CT',
          body_part: 'Chest',
          status: 'ACTIVE',
          content: '<p>No focal lesion.</p>',
        },
      },
    ]);
    expect(fieldError(byLabel(form, 'Name'))).toBeNull();
    // The organisation scope is offered only to whom the server allows it (capabilities).
    expect(Array.from(byLabel<HTMLSelectElement>(form, 'Scope').options).map((o) => o.value)).toEqual([
      'USER',
    ]);
  });

  it('updates an existing template with its id and stays on it', async () => {
    signIn();
    const api = fakeApi((request) =>
      request.method === 'GET'
        ? { status: 200, body: template() }
        : { status: 200, body: template({ name: 'Chest CT v2' }) },
    );
    const page = await openTemplate(`/template/${TEMPLATE_ID}`);
    await waitFor(() => expect(byLabel(page.container, 'Name').value).toBe('Normal chest CT'));
    await typeInto(byLabel(page.container, 'Name'), 'Chest CT v2');
    await click(byName(page.container, 'button', 'Save template'));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]?.body).toMatchObject({ id: TEMPLATE_ID, name: 'Chest CT v2', modality: 'CT' });
    expect(page.location()).toBe(`/template/${TEMPLATE_ID}`);
  });

  it('opens a default template read-only and duplicates it as the user’s own', async () => {
    signIn();
    const copyId = '00000000-0000-4000-8000-0000000000c2';
    const api = fakeApi((request) =>
      request.method === 'GET'
        ? {
            status: 200,
            body: template({
              scope: 'DEFAULT',
              owner_user_id: null,
              organisation_id: null,
              abilities: { change: false },
            }),
          }
        : { status: 201, body: template({ id: copyId, name: 'Normal chest CT (copy)' }) },
    );
    const page = await openTemplate(`/template/${TEMPLATE_ID}`);
    await waitFor(() => expect(byLabel(page.container, 'Name').value).toBe('Normal chest CT'));
    expect(byLabel(page.container, 'Name').closest('fieldset')?.disabled).toBe(true);
    expect(
      page.container.querySelector('[aria-label="Template content"]')?.getAttribute('contenteditable'),
    ).toBe('false');
    expect(() => byName(page.container, 'button', 'Save template')).toThrow();

    await click(byName(page.container, 'button', 'Duplicate as my template'));
    await waitFor(() => expect(page.location()).toBe(`/template/${copyId}`));
    expect(api.writes()[0]?.body).toEqual({
      name: 'Normal chest CT (copy)',
      scope: 'USER',
      modality: 'CT',
      body_part: 'Chest',
      status: 'ACTIVE',
      content: '<p>Lungs are clear.</p>',
    });
  });

  it('follows the abilities the server sends, not the role: an admin may not change what it says no to', async () => {
    signIn({ role: 'ADMIN' }, { create_organisation_templates: true });
    fakeApi(() => ({ status: 200, body: template({ abilities: { change: false } }) }));
    const page = await openTemplate(`/template/${TEMPLATE_ID}`);
    await waitFor(() => expect(byLabel(page.container, 'Name').value).toBe('Normal chest CT'));
    expect(byLabel(page.container, 'Name').closest('fieldset')?.disabled).toBe(true);
    expect(() => byName(page.container, 'button', 'Save template')).toThrow();
  });

  it('offers the organisation scope on a new template when the capabilities allow it', async () => {
    signIn({ role: 'RADIOLOGIST' }, { create_organisation_templates: true });
    fakeApi(() => ({ status: 500 }));
    const page = await openTemplate('/template/new');
    expect(
      Array.from(byLabel<HTMLSelectElement>(page.container, 'Scope').options).map((o) => o.value),
    ).toEqual(['USER', 'ORGANISATION']);
  });
});
