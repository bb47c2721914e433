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
    ORDERED: 800,
    FINAL: 201,
  },
  groups: { ALL: 1001, ORDERED: 800, ON_PROGRESS: 0, COMPLETED: 201 },
  capped,
  deleted_capped: false,
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
    expect([shown('ALL'), shown('ORDERED'), shown('COMPLETED')]).toEqual(['1,000+', '800+', '201+']);
    // None of the counted matches is in progress: not "0+", which reads as none.
    expect(shown('ON_PROGRESS')).toBe('?');
    const title = (group: string) =>
      document.querySelector(`[data-testid="count-${group}"]`)?.getAttribute('title') ?? '';
    expect(title('ON_PROGRESS')).toMatch(/^Not counted/);
    expect(title('ORDERED')).toMatch(/^At least this many/);
  });

  it('show a count of none as 0 when it is exact', async () => {
    view = await render(<StatusTabs value="ALL" onChange={() => undefined} counts={counts(false)} />);
    expect(shown('ON_PROGRESS')).toBe('0');
  });

  it('show a dash before the counts arrive', async () => {
    view = await render(<StatusTabs value="ALL" onChange={() => undefined} counts={undefined} />);
    expect(shown('ALL')).toBe('–');
  });
});
