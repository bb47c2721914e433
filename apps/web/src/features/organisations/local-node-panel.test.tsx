// @vitest-environment happy-dom
import type { TFacilityDetails } from '@ris/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../stores/app-store.ts';
import { authStore } from '../../stores/auth-store.ts';
import { byLabel, byName, click, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { FACILITY } from '../auth/test-support.ts';
import { fakeApi, renderRoutes, signIn } from '../templates/test-app.tsx';
import { LocalNodePanel } from './local-node-panel.tsx';

const facility: TFacilityDetails = {
  ...FACILITY,
  header_file_url: null,
  footer_file_url: null,
  local_node_url: null,
  updated_at: '2026-11-26T05:00:00.000Z',
};
let view: Rendered | null = null;

afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
  appStore.getState().dismissToast();
});

describe('local image node of a facility', () => {
  it('refuses a URL with credentials before sending, then saves the node with PUT /user/facility/{id}', async () => {
    signIn({ role: 'ADMIN' });
    const api = fakeApi((request) => ({
      status: 200,
      body: { ...facility, local_node_url: (request.body as { local_node_url: string }).local_node_url },
    }));
    view = await renderRoutes(
      [{ path: '/organisation', element: <LocalNodePanel facility={facility} /> }],
      '/organisation',
    );
    const field = byLabel(document.body, `Local image node of ${facility.name}`);
    await typeInto(field, 'https://ris:pw@10.0.0.5:8443/ohif');
    await click(byName(document.body, 'button', 'Save local node'));
    await waitFor(() =>
      expect(document.body.textContent).toMatch(/must not contain a user name or password/),
    );
    expect(api.requests).toEqual([]);
    await typeInto(field, 'https://10.0.0.5:8443/ohif/');
    await click(byName(document.body, 'button', 'Save local node'));
    await waitFor(() => expect(api.requests).toHaveLength(1));
    expect(api.requests[0]).toMatchObject({
      method: 'PUT',
      path: `/api/v1/user/facility/${facility.id}`,
      body: { local_node_url: 'https://10.0.0.5:8443/ohif' },
    });
    await waitFor(() => expect(appStore.getState().toast).toMatchObject({ kind: 'success' }));
  });
});
