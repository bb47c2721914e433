// @vitest-environment happy-dom
import type { TReport, TReportAbilities, TRole } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { authStore } from '../../stores/auth-store.ts';
import { render, waitFor, type Rendered } from '../../test/dom.tsx';
import { buildUser } from '../auth/test-support.ts';
import { buildItem } from '../../test/worklist-items.ts';
import { buildReport } from '../../test/reports.ts';
import { ReportOutputActions } from './report-output-actions.tsx';

const study = buildItem(3, { status: 'FINAL' });

function report(abilities: Partial<TReportAbilities>): TReport {
  return buildReport(
    { id: '00000000-0000-4000-8000-0000000000e3', worklist_id: study.id, status: 'COMPLETED', version: 3 },
    abilities,
  );
}

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  authStore.getState().clear();
});

/** The buttons and the Download menu's entries shown to a user of `role` with these abilities. */
async function offered(role: TRole, abilities: Partial<TReportAbilities>) {
  const user = buildUser({ role });
  authStore.getState().setVerifiedUser({
    user,
    roleDetails: { radiologist_details: null, transcriptionist_details: null, facility_details: null },
    facilities: [],
  });
  view = await render(
    <QueryClientProvider client={new QueryClient()}>
      <ReportOutputActions
        study={study}
        report={report(abilities)}
        userId={user.id}
        final
        getHtml={() => '<p>Findings.</p>'}
      />
    </QueryClientProvider>,
  );
  const container = view.container;
  const buttons = Array.from(container.querySelectorAll('button')).map((b) => b.textContent?.trim());
  const trigger = Array.from(container.querySelectorAll('button')).find((b) =>
    b.textContent?.includes('Download'),
  );
  if (!trigger) throw new Error('no Download menu');
  await act(async () => {
    trigger.dispatchEvent(
      new PointerEvent('pointerdown', { bubbles: true, button: 0, pointerType: 'mouse' }),
    );
  });
  const entries = await waitFor(() => {
    const items = Array.from(document.querySelectorAll('[role="menuitem"]'));
    if (items.length === 0) throw new Error('menu not open');
    return items.map((item) => item.textContent?.trim());
  });
  return { buttons, entries };
}

describe('report output actions follow the report abilities, not the role', () => {
  it('offers Preview, Share and "By radiologist…" exactly as the abilities allow', async () => {
    const all = await offered('TRANSCRIPTIONIST', { preview: true, share: true, choose_signers: true });
    expect(all.buttons).toEqual(expect.arrayContaining(['Preview', 'Share']));
    expect(all.entries).toContain('By radiologist…');
  });

  it('offers an administrator none of them when the abilities say no', async () => {
    const none = await offered('ADMIN', {});
    expect(none.buttons).not.toContain('Preview');
    expect(none.buttons).not.toContain('Share');
    expect(none.entries).not.toContain('By radiologist…');
    expect(none.entries).toContain('PDF with letterhead');
  });

  it('lets a referring physician share a final report when the server says so', async () => {
    const referrer = await offered('REFERRING_PHYSICIAN', { share: true });
    expect(referrer.buttons).toContain('Share');
    expect(referrer.buttons).not.toContain('Preview');
    expect(referrer.entries).not.toContain('By radiologist…');
  });
});
