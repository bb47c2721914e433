// @vitest-environment happy-dom
import { STUDY_STATUSES, type TWorklistStatusCounts } from '@ris/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { render, type Rendered } from '../../test/dom.tsx';
import { StatusTabs } from './status-tabs.tsx';

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
});

const counts = (capped: boolean): TWorklistStatusCounts => ({
  statuses: {
    ...(Object.fromEntries(STUDY_STATUSES.map((status) => [status, 0])) as TWorklistStatusCounts['statuses']),
    ORDERED: 300,
    TO_READ: 500,
    FINAL: 201,
  },
  groups: { ALL: 1001, ORDERED: 300, ON_PROGRESS: 500, COMPLETED: 201 },
  capped,
});

const shown = (group: string) => document.querySelector(`[data-testid="count-${group}"]`)?.textContent;

describe('the status tabs', () => {
  it('show exact counts as they are', async () => {
    view = await render(<StatusTabs value="ALL" onChange={() => undefined} counts={counts(false)} />);
    expect([shown('ALL'), shown('COMPLETED')]).toEqual(['1,001', '201']);
  });

  it('show a search’s counts counted up to the cap as lower bounds', async () => {
    view = await render(<StatusTabs value="ALL" onChange={() => undefined} counts={counts(true)} />);
    // The All tab no higher than the list's "1,000+"; the others as counted.
    expect([shown('ALL'), shown('ORDERED'), shown('COMPLETED')]).toEqual(['1,000+', '300+', '201+']);
  });

  it('show a dash before the counts arrive', async () => {
    view = await render(<StatusTabs value="ALL" onChange={() => undefined} counts={undefined} />);
    expect(shown('ALL')).toBe('–');
  });
});
