// @vitest-environment happy-dom
import type { TDeliveryMessage } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, byName, click, render, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { buildItem } from '../../test/worklist-items.ts';
import { fieldError } from '../templates/test-app.tsx';
import { ShareDialog } from './share-dialog.tsx';

const USER_ID = '00000000-0000-4000-8000-0000000000a1';
const study = buildItem(7, { status: 'FINAL', patient_name: 'Asha Verma' });

type TSent = { path: string; key: string | null; body: Record<string, unknown> };

function delivery(channel: 'email' | 'whatsapp', recipient: string): TDeliveryMessage {
  return {
    id: crypto.randomUUID(),
    channel,
    recipient,
    state: 'outbox',
    error: null,
    attempts: 0,
    with_letterhead: true,
    worklist_id: study.id,
    created_by: USER_ID,
    created_by_display_name: 'Dr Asha Rao',
    created_at: '2026-11-21T08:00:00.000Z',
    sent_at: null,
  };
}

/** The /comm share endpoints: records each POST with its Idempotency-Key; `answer` may refuse one. */
function fakeComm(answer: (sent: TSent) => { status: number; body?: unknown } | null = () => null) {
  const sent: TSent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit) => {
      const path = new URL(input, 'http://localhost').pathname;
      if (init.method !== 'POST') return new Response(JSON.stringify({ items: [] }), { status: 200 });
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      const record = { path, key: new Headers(init.headers).get('Idempotency-Key'), body };
      sent.push(record);
      const refused = answer(record);
      if (refused) return new Response(JSON.stringify(refused.body), { status: refused.status });
      const recipients = (body.emails ?? body.mobile_numbers) as string[];
      const channel = path.includes('whatsapp') ? 'whatsapp' : 'email';
      return new Response(JSON.stringify({ messages: recipients.map((to) => delivery(channel, to)) }), {
        status: 202,
      });
    }),
  );
  return sent;
}

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
  vi.unstubAllGlobals();
});

async function openDialog(onClose = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  view = await render(
    <QueryClientProvider client={client}>
      <ShareDialog study={study} userId={USER_ID} letterheadByDefault onClose={onClose} />
    </QueryClientProvider>,
  );
  return onClose;
}

const emailField = () => byLabel(document.body, 'E-mail addresses');
const mobileField = () => byLabel(document.body, 'Mobile numbers (WhatsApp)');
const chips = (label: string) =>
  Array.from(document.querySelectorAll(`[aria-label="${label} added"] li`)).map((li) => li.textContent);

describe('share dialog', () => {
  it('turns typed recipients into chips and keeps a bad one in the field with its error, sending nothing', async () => {
    const sent = fakeComm();
    await openDialog();
    await typeInto(emailField(), 'Ref@Clinic.org, nobody@');
    expect(chips('E-mail addresses')).toEqual(['ref@clinic.org']);
    expect(emailField().value).toBe('nobody@');
    expect(fieldError(emailField())).toBe('nobody@: must be a valid e-mail address');

    await typeInto(mobileField(), '98765 43210');
    await click(byName(document.body, 'button', 'Send'));
    expect(fieldError(mobileField())).toBe('98765 43210: must be an E.164 number such as +919876543210');
    expect(sent).toEqual([]);
  });

  it('asks for a recipient before sending', async () => {
    const sent = fakeComm();
    await openDialog();
    await click(byName(document.body, 'button', 'Send'));
    expect(document.querySelector('[role="alert"]')?.textContent).toBe(
      'Add at least one e-mail address or mobile number',
    );
    expect(sent).toEqual([]);
  });

  it('sends e-mail and WhatsApp with one Idempotency-Key per submission, text still in the field included', async () => {
    const sent = fakeComm();
    const onClose = await openDialog();
    await typeInto(emailField(), 'ref@clinic.org ');
    await typeInto(mobileField(), '+91 98765 43210,');
    await typeInto(emailField(), 'second@clinic.org');
    await click(byName(document.body, 'button', 'Send'));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const email = sent.find((request) => request.path === '/api/v1/comm/email/send-report-pdf');
    const whatsapp = sent.find((request) => request.path === '/api/v1/comm/whatsapp/send-report-pdf');
    expect(email?.body).toEqual({
      worklist_id: study.id,
      emails: ['ref@clinic.org', 'second@clinic.org'],
      with_letterhead: true,
      by_user_id: USER_ID,
    });
    expect(whatsapp?.body).toEqual({
      worklist_id: study.id,
      mobile_numbers: ['+919876543210'],
      with_letterhead: true,
      by_user_id: USER_ID,
    });
    const emailKey = email?.key ?? '';
    expect(emailKey).toMatch(/^[0-9a-f-]{36}:email$/);
    expect(whatsapp?.key).toBe(emailKey.replace(/:email$/, ':whatsapp'));
  });

  it('keeps what failed, shows the server message, and retries with the same key', async () => {
    let refuse = true;
    const sent = fakeComm((request) =>
      refuse && request.path.includes('whatsapp')
        ? { status: 503, body: { error: { code: 'UNAVAILABLE', message: 'WhatsApp is not reachable' } } }
        : null,
    );
    const onClose = await openDialog();
    await typeInto(emailField(), 'ref@clinic.org,');
    await typeInto(mobileField(), '+919876543210,');
    await click(byName(document.body, 'button', 'Send'));
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toBe('WhatsApp is not reachable'),
    );
    expect(chips('E-mail addresses')).toEqual([]);
    expect(chips('Mobile numbers (WhatsApp)')).toEqual(['+919876543210']);
    expect(onClose).not.toHaveBeenCalled();

    refuse = false;
    await click(byName(document.body, 'button', 'Send'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const whatsapp = sent.filter((request) => request.path.includes('whatsapp'));
    expect(whatsapp).toHaveLength(2);
    expect(whatsapp[1]?.key).toBe(whatsapp[0]?.key);
    expect(sent.filter((request) => request.path.includes('email'))).toHaveLength(1);
  });

  it('falls back to the specification text when the server sends no message', async () => {
    fakeComm(() => ({ status: 500, body: {} }));
    await openDialog();
    await typeInto(emailField(), 'ref@clinic.org,');
    await click(byName(document.body, 'button', 'Send'));
    await waitFor(() =>
      expect(document.querySelector('[role="alert"]')?.textContent).toBe(
        'Failed to share report PDF via Email',
      ),
    );
  });
});
