// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultWorklistFilters, type TWorklistFilters } from '../../stores/settings-store.ts';
import { byName, click, render, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { WorklistFilters } from './worklist-filters.tsx';

let view: Rendered | null = null;

afterEach(async () => {
  await view?.unmount();
  view = null;
});

async function renderBar(filters: TWorklistFilters, onChange: (patch: Partial<TWorklistFilters>) => void) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  view = await render(
    <QueryClientProvider client={client}>
      <WorklistFilters filters={filters} onChange={onChange} onReset={() => undefined} />
    </QueryClientProvider>,
  );
  return view;
}

describe('worklist filter bar: Priority', () => {
  it('offers every priority tag by its label and adds the one chosen to priority_tags', async () => {
    const onChange = vi.fn();
    const filters = { ...defaultWorklistFilters(), priority_tags: ['EMERGENCY' as const] };
    await renderBar(filters, onChange);
    await click(byName(document.body, 'button', 'Priority: 1 selected'));
    const options = await waitFor(() => {
      const legend = byName(document.body, 'legend', 'Priority');
      const labels = Array.from(legend.parentElement?.querySelectorAll('label') ?? []);
      expect(labels).toHaveLength(9);
      return labels;
    });
    expect(options.map((option) => option.textContent?.trim())).toContain('Post Surgical');
    const urgent = options.find((option) => option.textContent?.trim() === 'Urgent');
    const box = urgent?.querySelector('input') ?? urgent;
    if (!box) throw new Error('no Urgent option');
    await click(box);
    expect(onChange).toHaveBeenCalledWith({ priority_tags: ['EMERGENCY', 'URGENT'] });
  });
});

describe('worklist filter bar: Custom dates', () => {
  const custom = (start: string, end: string): TWorklistFilters => ({
    ...defaultWorklistFilters(),
    date_range_type: 'CUSTOM',
    start_date: start,
    end_date: end,
  });
  const field = (label: string) => {
    const input = document.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`);
    if (!input) throw new Error(`no ${label}`);
    return input;
  };

  it('never sends a range that ends before it starts: the other date moves with the one typed', async () => {
    const onChange = vi.fn();
    await renderBar(custom('2026-11-20', '2026-11-25'), onChange);
    await typeInto(field('From date'), '2026-12-05');
    expect(onChange).toHaveBeenLastCalledWith({ start_date: '2026-12-05', end_date: '2026-12-05' });
    await typeInto(field('To date'), '2026-11-01');
    expect(onChange).toHaveBeenLastCalledWith({ start_date: '2026-11-01', end_date: '2026-11-01' });
    await typeInto(field('To date'), '2026-11-30');
    expect(onChange).toHaveBeenLastCalledWith({ end_date: '2026-11-30' });
  });
});
