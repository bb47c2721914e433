// @vitest-environment happy-dom
import { DEFAULT_TURNAROUND_TARGETS, type TTurnaroundTargets, type TWorklistItem } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { render, type Rendered } from '../../test/dom.tsx';
import { buildItem } from '../../test/worklist-items.ts';
import { WorklistTable } from './worklist-table.tsx';

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
});

const TARGETS: TTurnaroundTargets = {
  ...DEFAULT_TURNAROUND_TARGETS,
  per_priority: { ...DEFAULT_TURNAROUND_TARGETS.per_priority },
};
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

async function show(items: TWorklistItem[], targets: TTurnaroundTargets | null) {
  view = await render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <WorklistTable
          items={items}
          columns={['patient_name', 'status']}
          sortBy="created_at"
          sortOrder="desc"
          onSort={() => undefined}
          selection={{}}
          onSelectionChange={() => undefined}
          quickAction="view"
          viewer="ohif"
          onOpen={() => undefined}
          onDelete={() => undefined}
          busy={false}
          emptyText="No studies"
          turnaroundTargets={targets}
        />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return view.container;
}

const clocks = (root: ParentNode) =>
  [...root.querySelectorAll('[role="img"]')].map((element) => element.getAttribute('aria-label'));

function rowOf(root: ParentNode, patient: string): Element {
  const row = [...root.querySelectorAll('tbody tr')].find((element) =>
    element.textContent?.includes(patient),
  );
  if (!row) throw new Error(`no row of ${patient}`);
  return row;
}

describe('the worklist clock badge', () => {
  it('shows on an item past its priority target, with the target in its words, and nowhere else', async () => {
    const root = await show(
      [
        // URGENT: 4 h target, arrived 5 h ago, still to read → past it.
        buildItem(1, { patient_name: 'Late Urgent', priority_tag: 'URGENT', created_at: minutesAgo(300) }),
        // URGENT, 3 h ago → within.
        buildItem(2, { patient_name: 'Fresh Urgent', priority_tag: 'URGENT', created_at: minutesAgo(180) }),
        // Untagged: default 24 h, 25 h ago → past, and shown although it has no priority badge.
        buildItem(3, { patient_name: 'Late Untagged', created_at: minutesAgo(25 * 60) }),
        // FINAL is never overdue, however old.
        buildItem(4, {
          patient_name: 'Done Emergency',
          priority_tag: 'EMERGENCY',
          status: 'FINAL',
          created_at: minutesAgo(600),
        }),
      ],
      TARGETS,
    );
    expect(clocks(rowOf(root, 'Late Urgent'))).toEqual(['Past the 4 h turnaround target']);
    expect(clocks(rowOf(root, 'Fresh Urgent'))).toEqual([]);
    expect(clocks(rowOf(root, 'Late Untagged'))).toEqual(['Past the 1 d turnaround target']);
    expect(clocks(rowOf(root, 'Done Emergency'))).toEqual([]);
  });

  it('follows the organisation’s own targets', async () => {
    const root = await show(
      [buildItem(1, { patient_name: 'Routine', priority_tag: 'ROUTINE', created_at: minutesAgo(130) })],
      { ...TARGETS, per_priority: { ...TARGETS.per_priority, ROUTINE: 120 } },
    );
    expect(clocks(rowOf(root, 'Routine'))).toEqual(['Past the 2 h turnaround target']);
  });

  it('shows no clock while the targets are unknown', async () => {
    const root = await show(
      [buildItem(1, { patient_name: 'Late Urgent', priority_tag: 'URGENT', created_at: minutesAgo(300) })],
      null,
    );
    expect(clocks(root)).toEqual([]);
  });
});
