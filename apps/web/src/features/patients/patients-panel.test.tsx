// @vitest-environment happy-dom
import {
  NO_CAPABILITIES,
  type TMergePatientResult,
  type TPatient,
  type TPatientList,
  type TRole,
} from '@ris/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../../stores/auth-store.ts';
import { byLabel, byName, click, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { FACILITY, buildUser } from '../auth/test-support.ts';
import {
  fakeApi,
  fieldError,
  renderRoutes,
  type Answer,
  type RecordedRequest,
} from '../templates/test-app.tsx';
import { buildItem } from '../../test/worklist-items.ts';
import { PatientsPanel } from './patients-panel.tsx';

const KEPT_ID = '00000000-0000-4000-8000-0000000000b1';
const DUPLICATE_ID = '00000000-0000-4000-8000-0000000000b2';

function patient(patch: Partial<TPatient> = {}): TPatient {
  return {
    id: KEPT_ID,
    facility_fk: FACILITY.id,
    patient_id: 'MRN-100',
    name: 'Priya Sharma',
    sex: 'F',
    birth_date: '1975-05-06',
    phone: null,
    email: null,
    merged_into_fk: null,
    created_at: '2026-11-01T08:00:00.000Z',
    updated_at: '2026-11-01T08:00:00.000Z',
    abilities: { edit: true, merge: true },
    ...patch,
  };
}
const duplicate = patient({
  id: DUPLICATE_ID,
  patient_id: 'MRN-177',
  name: 'Priya Sharmaa',
  birth_date: null,
});

function page(items: TPatient[]): TPatientList {
  return { items, total: items.length, limit: 10, offset: 0, next_offset: null, previous_offset: null };
}

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
});

function signInAs(role: TRole) {
  authStore.getState().setVerifiedUser({
    user: buildUser({ role }),
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [FACILITY],
    capabilities: NO_CAPABILITIES,
  });
}

function api(answer: (request: RecordedRequest) => Answer | undefined) {
  return fakeApi((request) => {
    const given = answer(request);
    if (given) return given;
    if (request.path.startsWith('/api/v1/user/patients'))
      return { status: 200, body: page([patient(), duplicate]) };
    return { status: 404, body: { error: { code: 'NOT_FOUND', message: `unexpected ${request.path}` } } };
  });
}

async function open() {
  view = await renderRoutes(
    [
      { path: '/', element: <PatientsPanel /> },
      { path: '/worklist/:id', element: <p>Study</p> },
    ],
    '/',
  );
  await waitFor(() => expect(text()).toContain('Priya Sharmaa'));
}

const text = () => document.body.textContent ?? '';
const button = (name: string) => byName<HTMLButtonElement>(document.body, 'button', name);

describe('PatientsPanel', () => {
  it('searches on the server and opens a record’s studies', async () => {
    signInAs('TRANSCRIPTIONIST');
    const calls = api((request) =>
      request.path.startsWith(`/api/v1/user/patient/${KEPT_ID}/studies`)
        ? {
            status: 200,
            body: {
              items: [buildItem(1, { study: 'CT Chest', status: 'FINAL', accession_number: 'ACC-1' })],
              total: 1,
              limit: 10,
              offset: 0,
              next_offset: null,
              previous_offset: null,
            },
          }
        : undefined,
    );
    await open();
    await typeInto(
      document.querySelector<HTMLInputElement>('input[aria-label="Search patients"]') as HTMLInputElement,
      'priya',
    );
    await waitFor(() => expect(calls.requests.at(-1)?.path).toContain('search=priya'));
    expect(calls.requests.at(-1)?.path).toContain('limit=10');

    await click(button('Show studies of Priya Sharma'));
    await waitFor(() => expect(text()).toContain('CT Chest'));
    expect(text()).toContain('ACC-1');
    expect(text()).toContain('Final');
  });

  it('edits a record with only the fields changed, and shows a refusal on its field', async () => {
    signInAs('ADMIN');
    let attempt = 0;
    const calls = api((request) => {
      if (request.method !== 'PATCH') return undefined;
      attempt += 1;
      return attempt === 1
        ? {
            status: 409,
            body: {
              error: {
                code: 'CONFLICT',
                message: 'patient_id: another patient of this facility has this identifier',
                details: { field: 'patient_id' },
              },
            },
          }
        : { status: 200, body: patient({ name: 'Priya R. Sharma', patient_id: 'MRN-101' }) };
    });
    await open();
    await click(button('Edit Priya Sharma'));
    await typeInto(byLabel(document.body, 'Name'), 'Priya R. Sharma');
    await typeInto(byLabel(document.body, 'Patient ID'), 'MRN-177');
    await click(button('Save'));
    await waitFor(() =>
      expect(fieldError(byLabel(document.body, 'Patient ID'))).toBe(
        'Another patient of this facility has this identifier',
      ),
    );
    expect(calls.writes()[0]).toMatchObject({
      method: 'PATCH',
      path: `/api/v1/user/patient/${KEPT_ID}`,
      body: { name: 'Priya R. Sharma', patient_id: 'MRN-177' },
    });
    expect(Object.keys(calls.writes()[0]?.body as object)).toEqual(['name', 'patient_id']);
    await typeInto(byLabel(document.body, 'Patient ID'), 'MRN-101');
    await click(button('Save'));
    await waitFor(() => expect(calls.writes()).toHaveLength(2));
    await waitFor(() => expect(() => button('Save')).toThrow());
  });

  it('merges a duplicate: pick, confirm both records, then the result', async () => {
    signInAs('ADMIN');
    const result: TMergePatientResult = {
      patient: patient({ phone: '+91 98765 43210' }),
      merged: { ...duplicate, merged_into_fk: KEPT_ID, abilities: { edit: false, merge: false } },
      moved_study_ids: ['00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-0000000000c2'],
    };
    const calls = api((request) => (request.method === 'POST' ? { status: 200, body: result } : undefined));
    await open();
    await click(button('Merge a duplicate into Priya Sharma'));
    // The picker searches the same facility and leaves the kept record out.
    await waitFor(() => button('Choose Priya Sharmaa MRN-177'));
    expect(() => button('Choose Priya Sharma MRN-100')).toThrow();
    expect(calls.requests.at(-1)?.path).toContain(`facility_fks=${FACILITY.id}`);
    await click(button('Choose Priya Sharmaa MRN-177'));
    expect(text()).toContain('Keep');
    expect(text()).toContain('Merge into it');
    expect(calls.writes()).toEqual([]);
    await click(button('Merge records'));
    await waitFor(() =>
      expect(text()).toContain('2 studies moved from Priya Sharmaa (MRN-177) to Priya Sharma'),
    );
    expect(calls.writes()).toEqual([
      { method: 'POST', path: `/api/v1/user/patient/${KEPT_ID}/merge`, body: { duplicate_id: DUPLICATE_ID } },
    ]);
  });

  it('offers edit and merge only as the server says, and shows empty and failed lists', async () => {
    signInAs('RADIOLOGIST');
    let answer: Answer = {
      status: 200,
      body: page([patient({ abilities: { edit: false, merge: false } }), duplicate]),
    };
    api(() => answer);
    await open();
    expect(() => button('Edit Priya Sharma')).toThrow();
    expect(() => button('Merge a duplicate into Priya Sharma')).toThrow();
    await view?.unmount();

    answer = { status: 200, body: page([]) };
    view = await renderRoutes([{ path: '/', element: <PatientsPanel /> }], '/');
    await waitFor(() => expect(text()).toContain('No patient records yet'));
    await view.unmount();

    answer = { status: 403, body: { error: { code: 'FORBIDDEN', message: 'You may not view patients' } } };
    view = await renderRoutes([{ path: '/', element: <PatientsPanel /> }], '/');
    await waitFor(() => expect(text()).toContain('You may not view patients'));
  });
});
