// @vitest-environment happy-dom
import { DEFAULT_TURNAROUND_TARGETS, type TTurnaroundTargetsResponse } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../stores/app-store.ts';
import { byLabel, byName, click, render, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { TurnaroundTargetsPanel } from './turnaround-targets-panel.tsx';

let view: Rendered | null = null;
let stored: TTurnaroundTargetsResponse;
let puts: unknown[] = [];
/** The next PUT's refusal, when set. */
let refusal: { status: number; body: unknown } | null = null;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

async function fakeFetch(input: string, init: RequestInit): Promise<Response> {
  const url = new URL(input, 'http://app.test');
  if (url.pathname !== '/api/v1/organisation/turnaround-targets') {
    return json(404, { error: { code: 'NOT_FOUND', message: `no ${url.pathname}` } });
  }
  if (init.method === 'PUT') {
    const body = JSON.parse(String(init.body)) as {
      default_minutes: number;
      per_priority: Record<string, number>;
    };
    puts.push(body);
    if (refusal) return json(refusal.status, refusal.body);
    stored = {
      is_default: false,
      targets: {
        default_minutes: body.default_minutes,
        per_priority: { ...stored.targets.per_priority, ...body.per_priority },
      },
    };
  }
  return json(200, stored);
}

beforeEach(() => {
  stored = {
    is_default: true,
    targets: { ...DEFAULT_TURNAROUND_TARGETS, per_priority: { ...DEFAULT_TURNAROUND_TARGETS.per_priority } },
  };
  puts = [];
  refusal = null;
  vi.stubGlobal('fetch', fakeFetch);
});

afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
  appStore.getState().dismissToast();
});

async function showPanel(canEdit: boolean): Promise<HTMLElement> {
  view = await render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <TurnaroundTargetsPanel canEdit={canEdit} />
    </QueryClientProvider>,
  );
  const root = view.container;
  await waitFor(() => expect(root.textContent).not.toContain('Loading the turnaround targets'));
  return root;
}

const errorOf = (field: HTMLElement) => {
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)).find((element) => element?.id.endsWith('-error'))
    ?.textContent;
};

describe('TurnaroundTargetsPanel', () => {
  it('an admin changes a target and saves every priority with it', async () => {
    const root = await showPanel(true);
    expect(root.textContent).toContain('These are the defaults');
    const urgent = byLabel(root, 'Urgent');
    expect(urgent.value).toBe('240');
    await typeInto(urgent, '180');
    expect(root.textContent).toContain('= 3 h');
    await click(byName(root, 'button', 'Save targets'));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toEqual({
      default_minutes: 1440,
      per_priority: { ...DEFAULT_TURNAROUND_TARGETS.per_priority, URGENT: 180 },
    });
    await waitFor(() => expect(appStore.getState().toast?.message).toBe('Turnaround targets saved'));
    expect(root.textContent).not.toContain('These are the defaults');
  });

  it('shows the server’s validation message on the field it names', async () => {
    const root = await showPanel(true);
    refusal = {
      status: 400,
      body: {
        error: {
          code: 'VALIDATION_FAILED',
          message: 'per_priority.EMERGENCY: must be at most 43200 minutes (30 days)',
          details: {
            fields: [{ field: 'per_priority.EMERGENCY', message: 'must be at most 43200 minutes (30 days)' }],
          },
        },
      },
    };
    await typeInto(byLabel(root, 'Emergency'), '50000');
    await click(byName(root, 'button', 'Save targets'));
    await waitFor(() =>
      expect(errorOf(byLabel(root, 'Emergency'))).toBe('must be at most 43200 minutes (30 days)'),
    );
    expect(byLabel(root, 'Emergency').getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(byLabel(root, 'Urgent'))).toBeUndefined();
    // Typing again clears the field's message.
    await typeInto(byLabel(root, 'Emergency'), '45');
    expect(errorOf(byLabel(root, 'Emergency'))).toBeUndefined();
  });

  it('refuses what is not a whole number of minutes before sending', async () => {
    const root = await showPanel(true);
    await typeInto(byLabel(root, 'Untagged'), '1.5');
    await click(byName(root, 'button', 'Save targets'));
    await waitFor(() => expect(errorOf(byLabel(root, 'Untagged'))).toBe('Enter a whole number of minutes'));
    expect(puts).toHaveLength(0);
  });

  it('a facility admin reads the targets and cannot change them', async () => {
    const root = await showPanel(false);
    expect(root.querySelector('input')).toBeNull();
    expect(root.querySelector('button')).toBeNull();
    const cells = [...root.querySelectorAll('dl[aria-label="Turnaround targets"] > div')].map(
      (element) => element.textContent,
    );
    expect(cells.slice(0, 4)).toEqual(['Untagged1 d', 'Emergency1 h', 'Urgent4 h', 'MLC6 h']);
  });
});
