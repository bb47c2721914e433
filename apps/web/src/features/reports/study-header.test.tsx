// @vitest-environment happy-dom
import type { TFacility, TOrganisationDetails } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TooltipProvider } from '../../components/ui/tooltip.tsx';
import { authStore } from '../../stores/auth-store.ts';
import { render, waitFor, type Rendered } from '../../test/dom.tsx';
import { buildUser, FACILITY, ORG_ID } from '../auth/test-support.ts';
import { buildItem } from '../../test/worklist-items.ts';
import { viewerTimeZone } from './facility-time.ts';
import { StudyHeader } from './study-header.tsx';

// A zone whose clock never reads like the viewer's, wherever the tests run.
const ELSEWHERE = viewerTimeZone() === 'Asia/Kolkata' ? 'Europe/London' : 'Asia/Kolkata';

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  authStore.setState({ user: null, facilities: [] });
});

async function showStudyOf(facility: TFacility): Promise<HTMLElement> {
  authStore.setState({ user: buildUser(), facilities: [facility] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  view = await render(
    <QueryClientProvider client={client}>
      <TooltipProvider>
        <StudyHeader
          item={buildItem(1, { facility_fk: facility.id, datetime: '2026-11-25T20:58:00.000Z' })}
        />
      </TooltipProvider>
    </QueryClientProvider>,
  );
  return view.container;
}

const studyDate = (container: HTMLElement) =>
  Array.from(container.querySelectorAll('dt')).find((term) => term.textContent === 'Study date')
    ?.parentElement?.textContent;

describe('StudyHeader', () => {
  it("shows the facility's time beside the viewer's when the facility's clock reads otherwise", async () => {
    const container = await showStudyOf({ ...FACILITY, time_zone: ELSEWHERE });
    expect(studyDate(container)).toMatch(/^Study date\d\d \w{3} 2026, \d\d:\d\d\(facility .*\d\d:\d\d .+\)$/);
  });

  it("shows only the viewer's time when the facility keeps the same clock", async () => {
    const container = await showStudyOf({ ...FACILITY, time_zone: viewerTimeZone() });
    expect(studyDate(container)).toMatch(/^Study date\d\d \w{3} 2026, \d\d:\d\d$/);
  });

  it("uses the organisation's zone for a facility without its own", async () => {
    const organisation: TOrganisationDetails = {
      id: ORG_ID,
      name: 'Demo Teleradiology',
      status: 'ACTIVE',
      report_style: null,
      time_zone: ELSEWHERE,
      all_facilities: [{ ...FACILITY, time_zone: null }],
      child_facility_ids: [],
    };
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        asked.push(String(input));
        return new Response(JSON.stringify(organisation), { status: 200 });
      }),
    );
    const container = await showStudyOf({ ...FACILITY, time_zone: null });
    await waitFor(() => expect(studyDate(container)).toContain('(facility '));
    expect(asked[0]).toContain(`/user/organisation/details/${ORG_ID}`);
  });
});
