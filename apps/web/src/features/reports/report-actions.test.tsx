// @vitest-environment happy-dom
import type { TReport, TReportAbilities } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { authStore } from '../../stores/auth-store.ts';
import { render, type Rendered } from '../../test/dom.tsx';
import { buildUser } from '../auth/test-support.ts';
import { buildItem } from '../../test/worklist-items.ts';
import { buildReport } from '../../test/reports.ts';
import type { TCollabSession } from './collab/collab-session.ts';
import { reportActions } from './offered-actions.ts';
import { ReportActions } from './report-actions.tsx';

function report(abilities: Partial<TReportAbilities>): TReport {
  return buildReport(
    {
      id: '00000000-0000-4000-8000-0000000000e1',
      worklist_id: buildItem(1).id,
      status: 'DRAFTED',
      version: 2,
    },
    abilities,
  );
}

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  authStore.getState().clear();
});

/** The report's action buttons for a signed-in ADMIN, with the abilities the server sent. */
async function buttonsFor(abilities: Partial<TReportAbilities>, status = buildItem(1).status) {
  const user = buildUser({ role: 'ADMIN' });
  authStore.getState().setVerifiedUser({
    user,
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [],
  });
  const study = buildItem(1, { status });
  const data = report(abilities);
  const session = { reportId: data.id, whenSaved: async () => undefined } as unknown as TCollabSession;
  view = await render(
    <QueryClientProvider client={new QueryClient()}>
      <ReportActions
        study={study}
        report={data}
        userId={user.id}
        permissions={reportActions(study, data)}
        session={session}
        editor={null}
      />
    </QueryClientProvider>,
  );
  return Array.from(view.container.querySelectorAll('button')).map((button) => button.textContent?.trim());
}

describe('report actions follow the abilities the server sends', () => {
  it('offers an administrator nothing the server says no to', async () => {
    const shown = await buttonsFor({}, 'DRAFTED');
    for (const name of ['Save draft', 'Submit for review', 'Return with comment', 'Finalize']) {
      expect(shown).not.toContain(name);
    }
  });

  it('offers each action the abilities allow', async () => {
    expect(await buttonsFor({ edit: true, submit: true }, 'DRAFTED')).toEqual(
      expect.arrayContaining(['Save draft', 'Submit for review']),
    );
    await view?.unmount();
    const inReview = await buttonsFor({ edit: true, return: true, finalize: true }, 'IN_REVIEW');
    expect(inReview).toEqual(expect.arrayContaining(['Return with comment', 'Finalize']));
    expect(inReview).not.toContain('Save draft');
  });

  it('offers Preview by abilities.preview, not by the role (even to an administrator)', async () => {
    expect(await buttonsFor({ edit: true }, 'DRAFTED')).not.toContain('Preview');
    await view?.unmount();
    expect(await buttonsFor({ edit: true, preview: true }, 'DRAFTED')).toContain('Preview');
  });
});

describe('reportActions', () => {
  it('decides creation by the study before a report exists, and the rest by the report', () => {
    const study = buildItem(1, { status: 'ASSIGNED' });
    const writable = { ...study, abilities: { ...study.abilities, write_report: true } };
    expect(reportActions(writable, null).edit).toBe(true);
    expect(
      reportActions({ ...study, abilities: { ...study.abilities, write_report: false } }, null).edit,
    ).toBe(false);
    expect(reportActions(writable, report({ addendum: true }))).toMatchObject({
      edit: false,
      addAddendum: true,
    });
  });
});
