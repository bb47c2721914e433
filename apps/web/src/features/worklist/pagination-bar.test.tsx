// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { render, type Rendered } from '../../test/dom.tsx';
import { buildItem, buildPage } from '../../test/worklist-items.ts';
import { PaginationBar } from './pagination-bar.tsx';

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
});

async function show(page: ReturnType<typeof buildPage>) {
  const offsets: number[] = [];
  view = await render(
    <PaginationBar label="Worklist" page={page} pageSize={25} onOffset={(offset) => offsets.push(offset)} />,
  );
  return offsets;
}

describe('the worklist pagination bar', () => {
  const items = Array.from({ length: 25 }, (_, index) => buildItem(index));

  it('says an exact total as it is', async () => {
    await show({ ...buildPage(items, 25, 240), total_capped: false });
    expect(document.body.textContent).toContain('1–25 of 240');
    expect(document.body.textContent).not.toContain('240+');
  });

  it('says a search total counted up to the cap as a lower bound ("of 1,000+") and still pages on', async () => {
    const offsets = await show({ ...buildPage(items, 25, 1000), total_capped: true });
    expect(document.body.textContent).toContain('1–25 of 1,000+');
    const next = document.querySelector<HTMLButtonElement>('button[aria-label="Next page"]');
    expect(next?.disabled).toBe(false);
    next?.click();
    expect(offsets).toEqual([25]);
  });
});
