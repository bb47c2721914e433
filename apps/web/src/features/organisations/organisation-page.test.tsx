// @vitest-environment happy-dom
import {
  DEFAULT_REPORT_STYLE,
  type TFacilityDetails,
  type TOrganisationDetails,
  type TReportStyle,
} from '@ris/domain';
import { act } from 'react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byName, click, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { authStore } from '../../stores/auth-store.ts';
import { FACILITY, ORG_ID } from '../auth/test-support.ts';
import { fakeApi, fieldError, renderRoutes, signIn, type RecordedRequest } from '../templates/test-app.tsx';
import { OrganisationPage, organisationTabs } from './organisation-page.tsx';

const facility: TFacilityDetails = {
  ...FACILITY,
  header_file_url: null,
  footer_file_url: null,
  local_node_url: null,
  updated_at: '2026-11-21T08:00:00.000Z',
};

function organisation(style: TReportStyle | null = null): TOrganisationDetails {
  return {
    id: ORG_ID,
    name: 'Demo Teleradiology',
    status: 'ACTIVE',
    report_style: style ? JSON.stringify(style) : null,
    time_zone: 'Asia/Kolkata',
    all_facilities: [FACILITY],
    child_facility_ids: [],
  };
}

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.getState().clear();
});

/** GETs of the organisation and its facility; PUTs answered by `put`. */
function organisationApi(put: (request: RecordedRequest) => { status: number; body?: unknown }) {
  return fakeApi((request) => {
    if (request.method === 'PUT') return put(request);
    if (request.path === `/api/v1/user/organisation/details/${ORG_ID}`)
      return { status: 200, body: organisation() };
    if (request.path === `/api/v1/user/facility/${FACILITY.id}`) return { status: 200, body: facility };
    return { status: 404, body: { error: { code: 'NOT_FOUND', message: request.path } } };
  });
}

async function openPage() {
  view = await renderRoutes([{ path: '/organisation', element: <OrganisationPage /> }], '/organisation');
  await waitFor(() => expect(byLabel(document.body, 'Font size').value).toBe('10.5'));
  return view;
}

const saveButton = () => byName<HTMLButtonElement>(document.body, 'button', 'Save style');

describe('organisation report style form', () => {
  it('checks every value against the API limits inline and sends nothing while one is wrong', async () => {
    signIn({ role: 'ADMIN' });
    const api = organisationApi(() => ({ status: 200, body: organisation() }));
    await openPage();
    expect(saveButton().disabled).toBe(true);

    await typeInto(byLabel(document.body, 'Font size'), '30');
    await typeInto(byLabel(document.body, 'Top margin'), '');
    expect(fieldError(byLabel(document.body, 'Font size'))).toBe('Must be at most 18');
    expect(fieldError(byLabel(document.body, 'Top margin'))).toBe('Enter a number');
    await click(saveButton());
    expect(api.writes()).toEqual([]);
  });

  it('saves the style as serialized JSON with PUT /user/organisation/{id}', async () => {
    signIn({ role: 'ADMIN' });
    const api = organisationApi((request) => ({
      status: 200,
      body: { ...organisation(), report_style: (request.body as { report_style: string }).report_style },
    }));
    await openPage();
    await typeInto(byLabel(document.body, 'Font size'), '12');
    await typeInto(byLabel(document.body, 'Header height'), '40');
    await typeInto(byLabel<HTMLSelectElement>(document.body, 'Signature placement'), 'left');
    await click(byLabel(document.body, 'Show the patient block'));
    await click(saveButton());

    await waitFor(() => expect(api.writes()).toHaveLength(1));
    const [write] = api.writes();
    expect(write?.path).toBe(`/api/v1/user/organisation/${ORG_ID}`);
    const body = write?.body as { report_style: string };
    expect(Object.keys(body)).toEqual(['report_style']);
    expect(JSON.parse(body.report_style)).toEqual({
      ...DEFAULT_REPORT_STYLE,
      font_size_pt: 12,
      header_height_mm: 40,
      signature_placement: 'left',
      show_patient_block: false,
    });
    await waitFor(() => expect(saveButton().disabled).toBe(true));
  });

  it('shows a refused value on the field the server names', async () => {
    signIn({ role: 'ADMIN' });
    organisationApi(() => ({
      status: 400,
      body: {
        error: {
          code: 'VALIDATION_FAILED',
          message: 'report_style.margins_mm.left: too big: expected number to be <=60',
          details: { field: 'report_style', path: 'report_style.margins_mm.left' },
        },
      },
    }));
    await openPage();
    await typeInto(byLabel(document.body, 'Left margin'), '30');
    await click(saveButton());
    await waitFor(() =>
      expect(fieldError(byLabel(document.body, 'Left margin'))).toBe('Too big: expected number to be <=60'),
    );
  });

  it('shows a picked header image in the page preview before it is uploaded', async () => {
    signIn({ role: 'ADMIN' });
    const api = organisationApi(() => ({ status: 200 }));
    await openPage();
    expect(document.querySelector('img[alt="Letterhead header"]')).toBeNull();

    const input = await waitFor(() => byLabel(document.body, 'Choose header'));
    const image = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'header.png', { type: 'image/png' });
    await act(async () => {
      Object.defineProperty(input, 'files', { value: [image], configurable: true });
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    const shown = await waitFor(() => {
      const img = document.querySelector<HTMLImageElement>('img[alt="Letterhead header"]');
      if (!img) throw new Error('no header image in the preview');
      return img;
    });
    expect(shown.src).toMatch(/^blob:/);
    expect(document.body.textContent).toContain('header.png (1 KB) — not uploaded yet');
    expect(api.writes()).toEqual([]);

    // A file that is not PNG or JPEG is refused on the spot.
    const text = new File(['hello'], 'footer.gif', { type: 'image/gif' });
    await act(async () => {
      const footer = byLabel(document.body, 'Choose footer');
      Object.defineProperty(footer, 'files', { value: [text], configurable: true });
      footer.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(document.body.textContent).toContain('footer.gif: choose a PNG or JPEG image');
    expect(document.querySelector('img[alt="Letterhead footer"]')).toBeNull();
  });

  it('lets a facility administrator see the layout without the style form', async () => {
    signIn({ role: 'FACILITY_ADMIN' });
    organisationApi(() => ({ status: 403 }));
    view = await renderRoutes([{ path: '/organisation', element: <OrganisationPage /> }], '/organisation');
    await waitFor(() => expect(document.querySelector('[aria-label="Letterhead preview"]')).not.toBeNull());
    expect(document.querySelector('form[aria-label="Report style"]')).toBeNull();
    // Their sections: the layout, the turnaround targets and dictation (read only), not the outbox.
    const sections = document.querySelectorAll('nav[aria-label="Organisation sections"] button');
    expect([...sections].map((button) => button.textContent)).toEqual([
      'Report layout',
      'Turnaround targets',
      'Dictation',
    ]);
  });

  it("sets the organisation's time zone and lets the facility use it", async () => {
    signIn({ role: 'ADMIN' });
    const api = organisationApi((request) =>
      request.path === `/api/v1/user/organisation/${ORG_ID}`
        ? { status: 200, body: { ...organisation(), time_zone: 'Europe/London' } }
        : { status: 200, body: { ...facility, time_zone: null, updated_at: '2026-11-25T21:00:00.000Z' } },
    );
    await openPage();
    const facilityZone = await waitFor(() =>
      byLabel<HTMLSelectElement>(document.body, `Time zone of ${FACILITY.name}`),
    );
    expect(facilityZone.value).toBe('Asia/Kolkata');
    // The facility's and the organisation's zone, which this ICU may not list, each once.
    const zones = [...facilityZone.options].map((option) => option.value);
    expect(zones.filter((zone) => zone === 'Asia/Kolkata')).toEqual(['Asia/Kolkata']);
    expect(new Set(zones).size).toBe(zones.length);
    await typeInto(byLabel<HTMLSelectElement>(document.body, 'Organisation time zone'), 'Europe/London');
    await typeInto(facilityZone, '');
    await click(byName<HTMLButtonElement>(document.body, 'button', 'Save time zone'));

    await waitFor(() => expect(api.writes()).toHaveLength(2));
    expect(api.writes().map((write) => [write.path, write.body])).toEqual([
      [`/api/v1/user/organisation/${ORG_ID}`, { time_zone: 'Europe/London' }],
      [`/api/v1/user/facility/${FACILITY.id}`, { time_zone: null }],
    ]);
  });
});

/** Shows the address's query string, for checking that the open tab is kept in it. */
function LocationProbe() {
  return <output data-testid="search">{useLocation().search}</output>;
}

const tabNamed = (name: string) => byName<HTMLButtonElement>(document.body, '[role="tab"]', name);

describe('organisation tabs', () => {
  it('shows Archives to whom the server allows manage_archives (administrators)', () => {
    expect(organisationTabs('ADMIN', true)).toContain('archives');
    expect(organisationTabs('ADMIN', false)).not.toContain('archives');
    expect(organisationTabs('FACILITY_ADMIN', false)).not.toContain('archives');
    expect(organisationTabs('RADIOLOGIST', true)).toEqual([]);
  });

  it('opens the tab named in ?tab= and keeps the chosen tab in the address', async () => {
    signIn({ role: 'ADMIN' });
    organisationApi(() => ({ status: 200 }));
    view = await renderRoutes(
      [
        {
          path: '/organisation',
          element: (
            <>
              <OrganisationPage />
              <LocationProbe />
            </>
          ),
        },
      ],
      '/organisation?tab=patients',
    );
    const tabs = Array.from(document.querySelectorAll('[role="tablist"] [role="tab"]'));
    expect(tabs.map((tab) => tab.textContent)).toEqual([
      'Organisation',
      'Users',
      'Referring physicians',
      'Patients',
    ]);
    expect(tabNamed('Patients').getAttribute('aria-selected')).toBe('true');
    expect(tabNamed('Patients').tabIndex).toBe(0);
    expect(tabNamed('Users').tabIndex).toBe(-1);
    const panel = document.querySelector('[role="tabpanel"]');
    expect(panel?.getAttribute('aria-labelledby')).toBe(tabNamed('Patients').id);

    // Arrow keys move along the tabs and select them; the address follows.
    await act(async () => {
      tabNamed('Patients').dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    });
    expect(tabNamed('Organisation').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tabNamed('Organisation'));
    expect(document.querySelector('[data-testid="search"]')?.textContent).toBe('');
    await waitFor(() => expect(document.querySelector('[aria-label="Letterhead preview"]')).not.toBeNull());

    await act(async () => {
      tabNamed('Organisation').dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
    });
    expect(document.querySelector('[data-testid="search"]')?.textContent).toBe('?tab=patients');
    await click(tabNamed('Users'));
    expect(document.querySelector('[data-testid="search"]')?.textContent).toBe('?tab=users');
    expect(tabNamed('Users').getAttribute('aria-selected')).toBe('true');
  });

  it('falls back to the organisation tab for an unknown ?tab=', async () => {
    signIn({ role: 'FACILITY_ADMIN' });
    organisationApi(() => ({ status: 403 }));
    view = await renderRoutes(
      [{ path: '/organisation', element: <OrganisationPage /> }],
      '/organisation?tab=nope',
    );
    expect(tabNamed('Organisation').getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(document.querySelector('[aria-label="Letterhead preview"]')).not.toBeNull());
  });
});
