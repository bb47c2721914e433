// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultWorklistFilters, type TWorklistFilters } from '../../stores/settings-store.ts';
import { byName, click, render, waitFor, type Rendered } from '../../test/dom.tsx';
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
