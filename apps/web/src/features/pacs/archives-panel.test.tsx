// @vitest-environment happy-dom
import { NO_CAPABILITIES, type TFacility, type TPacsArchive } from '@ris/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byName, click, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { appStore } from '../../stores/app-store.ts';
import { authStore } from '../../stores/auth-store.ts';
import { FACILITY, buildUser } from '../auth/test-support.ts';
import { fakeApi, fieldError, renderRoutes, type RecordedRequest } from '../templates/test-app.tsx';
import { ArchivesPanel } from './archives-panel.tsx';

const LAKESIDE: TFacility = { ...FACILITY, id: '00000000-0000-4000-8000-0000000000f2', name: 'Lakeside' };
const ADMIN = buildUser({ id: '00000000-0000-4000-8000-0000000000a0', role: 'ADMIN' });

function archive(patch: Partial<TPacsArchive> = {}): TPacsArchive {
  return {
    id: '00000000-0000-4000-8000-0000000000c1',
    name: 'Main Orthanc',
    kind: 'orthanc',
    dicomweb_url: 'http://127.0.0.1:8042/dicom-web',
    orthanc_url: 'http://127.0.0.1:8042',
    auth_kind: 'basic',
    username: 'ris',
    has_secret: true,
    facilities: [{ facility_id: FACILITY.id, facility_name: FACILITY.name, institution_name: null }],
    default_facility_id: FACILITY.id,
    enabled: true,
    poll_interval_seconds: 10,
    sync: {
      last_sync_at: '2026-11-25T09:00:00.000Z',
      last_success_at: '2026-11-25T08:00:00.000Z',
      last_error: 'Main Orthanc: cannot be reached (ECONNREFUSED)',
      last_error_at: '2026-11-25T09:00:00.000Z',
      failure_count: 3,
      changes_cursor: 12,
      polled_until: null,
    },
    created_at: '2026-11-20T08:00:00.000Z',
    updated_at: '2026-11-20T08:00:00.000Z',
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

async function open(answer: (request: RecordedRequest) => { status: number; body?: unknown }) {
  const api = fakeApi(answer);
  authStore.getState().setVerifiedUser({
    user: ADMIN,
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [FACILITY, LAKESIDE],
    capabilities: { ...NO_CAPABILITIES, manage_archives: true },
  });
  view = await renderRoutes([{ path: '/organisation', element: <ArchivesPanel /> }], '/organisation');
  return api;
}

const dialog = () =>
  waitFor(() => {
    const found = document.querySelector('[role="dialog"]');
    if (!found) throw new Error('no dialog');
    return found;
  });

describe('archives tab', () => {
  it('lists the archives with their URL, facilities and sync state, the last error in red', async () => {
    await open(() => ({ status: 200, body: { archives: [archive()] } }));
    const row = await waitFor(() => {
      const found = document.querySelector('tbody tr');
      if (!found) throw new Error('no row');
      return found;
    });
    expect(row.textContent).toContain('Main Orthanc');
    expect(row.textContent).toContain('http://127.0.0.1:8042/dicom-web');
    expect(row.textContent).toContain(`${FACILITY.name} (default)`);
    expect(row.textContent).toContain('Enabled');
    expect(row.textContent).toContain('Last success');
    const error = row.querySelector('.text-danger');
    expect(error?.textContent).toContain('ECONNREFUSED');
    expect(error?.textContent).toContain('3 failed in a row');
  });

  it('adds an archive with a JSON POST; checks fields first and shows the one the server names', async () => {
    const api = await open((request) =>
      request.method === 'POST'
        ? {
            status: 409,
            body: {
              error: { code: 'CONFLICT', message: 'name: already exists', details: { field: 'name' } },
            },
          }
        : { status: 200, body: { archives: [] } },
    );
    await click(await waitFor(() => byName(document.body, 'button', 'Add archive')));
    const form = await dialog();
    await typeInto(byLabel(form, 'Name'), 'Main');
    await typeInto(byLabel(form, 'DICOMweb URL'), 'http://ris:pw@127.0.0.1:8042/dicom-web');
    await click(byName(form, 'button', 'Add archive'));
    expect(fieldError(byLabel(form, 'DICOMweb URL'))).toMatch(/user name or password/);
    expect(fieldError(byLabel(form, 'Orthanc REST URL'))).toMatch(/required/);
    expect(fieldError(byLabel(form, 'Password'))).toMatch(/password is required/);
    expect(api.writes()).toEqual([]);

    await typeInto(byLabel(form, 'DICOMweb URL'), 'http://127.0.0.1:8042/dicom-web');
    await typeInto(byLabel(form, 'Orthanc REST URL'), 'http://127.0.0.1:8042');
    await typeInto(byLabel(form, 'User name'), 'ris');
    await typeInto(byLabel(form, 'Password'), 'secret-pw');
    await click(form.querySelector('input[type="checkbox"]') ?? form);
    await click(byName(form, 'button', 'Add archive'));
    await waitFor(() => expect(fieldError(byLabel(form, 'Name'))).toBe('Already exists'));
    expect(api.writes()).toEqual([
      {
        method: 'POST',
        path: '/api/v1/pacs/archives',
        body: {
          name: 'Main',
          kind: 'orthanc',
          dicomweb_url: 'http://127.0.0.1:8042/dicom-web',
          orthanc_url: 'http://127.0.0.1:8042',
          auth_kind: 'basic',
          username: 'ris',
          secret: 'secret-pw',
          facilities: [{ facility_id: FACILITY.id, institution_name: null }],
          default_facility_id: null,
          enabled: true,
          poll_interval_seconds: 10,
        },
      },
    ]);
  });

  it('keeps the stored password when its field is left empty', async () => {
    const api = await open((request) =>
      request.method === 'PUT'
        ? { status: 200, body: archive({ name: 'Renamed' }) }
        : { status: 200, body: { archives: [archive()] } },
    );
    await click(await waitFor(() => byName(document.body, 'button', 'Edit Main Orthanc')));
    const form = await dialog();
    expect(byLabel(form, 'Password').placeholder).toBe('stored — leave empty to keep');
    await typeInto(byLabel(form, 'Name'), 'Renamed');
    await click(byName(form, 'button', 'Save'));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    const [put] = api.writes();
    expect(put?.path).toBe('/api/v1/pacs/archives/00000000-0000-4000-8000-0000000000c1');
    expect(put?.body).toMatchObject({ name: 'Renamed', auth_kind: 'basic', username: 'ris' });
    expect(put?.body).not.toHaveProperty('secret');
  });

  it('asks for the password again when the archive moves to another server', async () => {
    const api = await open((request) =>
      request.method === 'PUT'
        ? { status: 200, body: archive({ dicomweb_url: 'https://pacs.example/dicom-web' }) }
        : { status: 200, body: { archives: [archive()] } },
    );
    await click(await waitFor(() => byName(document.body, 'button', 'Edit Main Orthanc')));
    const form = await dialog();
    await typeInto(byLabel(form, 'DICOMweb URL'), 'https://pacs.example/dicom-web');
    await click(byName(form, 'button', 'Save'));
    await waitFor(() => expect(form.textContent).toContain('must be given again when the address changes'));
    expect(api.writes()).toHaveLength(0);
    await typeInto(byLabel(form, 'Password'), 'new-password');
    await click(byName(form, 'button', 'Save'));
    await waitFor(() => expect(api.writes()).toHaveLength(1));
    expect(api.writes()[0]?.body).toMatchObject({ secret: 'new-password' });
  });

  it('tests the connection and shows the answer; syncs now; deletes after confirming', async () => {
    const api = await open((request) => {
      if (request.path.endsWith('/test'))
        return {
          status: 200,
          body: {
            ok: false,
            message: 'DICOMweb: The archive refused the credentials (HTTP 401)',
            details: { checks: [], orthanc_version: null, elapsed_ms: 12 },
          },
        };
      if (request.path.startsWith('/api/v1/worklist/populate/worklist'))
        return {
          status: 200,
          body: {
            added: 2,
            updated: 1,
            deleted: 0,
            archives: [
              {
                id: archive().id,
                name: 'Main Orthanc',
                ok: true,
                error: null,
                added: 2,
                updated: 1,
                deleted: 0,
              },
            ],
          },
        };
      if (request.method === 'DELETE') return { status: 200, body: { id: archive().id, deleted: true } };
      return { status: 200, body: { archives: [archive()] } };
    });
    await click(await waitFor(() => byName(document.body, 'button', 'Test connection to Main Orthanc')));
    await waitFor(() =>
      expect(document.querySelector('tbody [role="status"]')?.textContent).toContain(
        'refused the credentials',
      ),
    );
    await click(byName(document.body, 'button', 'Sync Main Orthanc now'));
    await waitFor(() =>
      expect(api.requests.map((request) => request.path)).toContain(
        `/api/v1/worklist/populate/worklist?archive_id=${archive().id}`,
      ),
    );
    await waitFor(() =>
      expect(appStore.getState().toast?.message).toBe('Main Orthanc: 2 new studies, 1 updated'),
    );
    await click(byName(document.body, 'button', 'Delete Main Orthanc'));
    const confirm = await dialog();
    expect(api.writes().filter((request) => request.method === 'DELETE')).toEqual([]);
    await click(byName(confirm, 'button', 'Delete'));
    await waitFor(() =>
      expect(
        api
          .writes()
          .filter((request) => request.method === 'DELETE')
          .map((request) => request.path),
      ).toEqual([`/api/v1/pacs/archives/${archive().id}`]),
    );
  });
});
