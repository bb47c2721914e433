// @vitest-environment happy-dom
import type { TDeliveryMessage } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, waitFor, type Rendered } from '../../test/dom.tsx';
import { DELIVERY_REFRESH_MS, DeliveryStatusList } from './delivery-status.tsx';

const WORKLIST_ID = '00000000-0000-4000-8000-000000000007';

function message(patch: Partial<TDeliveryMessage>): TDeliveryMessage {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    channel: 'email',
    recipient: 'ref@clinic.org',
    state: 'pending',
    error: null,
    attempts: 1,
    with_letterhead: false,
    worklist_id: WORKLIST_ID,
    created_by: null,
    created_by_display_name: 'Dr Asha Rao',
    created_at: '2026-11-21T08:00:00.000Z',
    sent_at: null,
    ...patch,
  };
}

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
});

/** GET /comm/messages answering each call with the next list (the last one repeats). */
function fakeDeliveries(answers: TDeliveryMessage[][]) {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      paths.push(`${url.pathname}${url.search}`);
      const items = answers[Math.min(paths.length - 1, answers.length - 1)] ?? [];
      return new Response(JSON.stringify({ items }), { status: 200 });
    }),
  );
  return paths;
}

async function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  view = await render(
    <QueryClientProvider client={client}>
      <DeliveryStatusList worklistId={WORKLIST_ID} />
    </QueryClientProvider>,
  );
  return view.container;
}

describe('delivery status list', () => {
  it('shows each delivery and asks again while one is pending, until it is sent', async () => {
    const paths = fakeDeliveries([
      [
        message({ state: 'pending', error: 'connect ECONNREFUSED 127.0.0.1:2525' }),
        message({
          id: '00000000-0000-4000-8000-000000000002',
          channel: 'whatsapp',
          recipient: '+919876543210',
          state: 'failed',
          error: 'Recipient not on WhatsApp',
        }),
      ],
      [
        message({ state: 'sent', attempts: 2, sent_at: '2026-11-21T08:01:00.000Z' }),
        message({
          id: '00000000-0000-4000-8000-000000000002',
          channel: 'whatsapp',
          recipient: '+919876543210',
          state: 'failed',
          error: 'Recipient not on WhatsApp',
        }),
      ],
    ]);
    const container = await show();
    await waitFor(() => expect(container.querySelectorAll('li')).toHaveLength(2));
    const badges = () =>
      Array.from(container.querySelectorAll('[data-state]')).map((badge) => badge.textContent);
    expect(badges()).toEqual(['pending', 'failed']);
    expect(container.textContent).toContain('Retrying: connect ECONNREFUSED 127.0.0.1:2525');
    expect(container.textContent).toContain('Recipient not on WhatsApp');
    expect(paths[0]).toBe(`/api/v1/comm/messages?worklist_id=${WORKLIST_ID}`);

    await waitFor(() => expect(badges()).toEqual(['sent', 'failed']), DELIVERY_REFRESH_MS + 2000);
    expect(paths).toHaveLength(2);
  }, 10_000);

  it('shows a message kept in the outbox (no provider configured) as "in outbox"', async () => {
    fakeDeliveries([[message({ state: 'outbox', attempts: 0 })]]);
    const container = await show();
    await waitFor(() => expect(container.querySelector('[data-state]')?.textContent).toBe('in outbox'));
    expect(container.textContent).toContain('ref@clinic.org');
  });
});
