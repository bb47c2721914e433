// @vitest-environment happy-dom
import type { TSpeechSettings } from '@ris/domain';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../../stores/app-store.ts';
import { byLabel, byName, click, render, typeInto, waitFor, type Rendered } from '../../../test/dom.tsx';
import { SpeechSettingsPanel } from './speech-settings-panel.tsx';

let view: Rendered | null = null;
let stored: TSpeechSettings;
let puts: Record<string, unknown>[] = [];
let refusal: { status: number; body: unknown } | null = null;

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

async function fakeFetch(input: string, init: RequestInit): Promise<Response> {
  const url = new URL(input, 'http://app.test');
  if (url.pathname !== '/api/v1/organisation/speech-settings')
    return json(404, { error: { code: 'NOT_FOUND', message: `no ${url.pathname}` } });
  if (init.method === 'PUT') {
    const body = JSON.parse(String(init.body)) as Record<string, unknown> & {
      augnito: { access_key?: string; account_code: string; lm_id: string; server_url: string };
      provider: TSpeechSettings['provider'];
    };
    puts.push(body);
    if (refusal) return json(refusal.status, refusal.body);
    stored = {
      ...stored,
      provider: body.provider,
      augnito: {
        server_url: body.augnito.server_url,
        account_code: body.augnito.account_code,
        lm_id: body.augnito.lm_id,
        has_access_key: stored.augnito.has_access_key || body.augnito.access_key !== undefined,
      },
    };
  }
  return json(200, stored);
}

beforeEach(() => {
  stored = {
    provider: 'off',
    pocketsphinx_available: false,
    language_model: null,
    augnito: {
      server_url: 'wss://api.augnito.ai/v2/speechapi',
      account_code: '',
      lm_id: '',
      has_access_key: false,
    },
    browser_speech_allowed: false,
    recording_retention_days: 90,
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
      <SpeechSettingsPanel canEdit={canEdit} />
    </QueryClientProvider>,
  );
  const root = view.container;
  await waitFor(() => expect(root.textContent).not.toContain('Loading the dictation settings'));
  return root;
}

function radio(root: HTMLElement, value: string): HTMLInputElement {
  const found = root.querySelector<HTMLInputElement>(`input[type="radio"][value="${value}"]`);
  if (!found) throw new Error(`no choice ${value}`);
  return found;
}

const errorOf = (field: HTMLElement) => {
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)).find((element) => element?.id.endsWith('-error'))
    ?.textContent;
};

describe('SpeechSettingsPanel', () => {
  it('says when the offline engine is not installed, and lets an admin set up Augnito with a write-only key', async () => {
    const root = await showPanel(true);
    expect(root.textContent).toContain('Not installed on this server.');
    expect(radio(root, 'pocketsphinx').disabled).toBe(true);
    await click(radio(root, 'augnito'));
    expect(byLabel(root, 'Access key').type).toBe('password');
    expect(root.textContent).toContain('No key stored yet.');
    await typeInto(byLabel(root, 'Account code'), 'acct-1');
    await typeInto(byLabel(root, 'Language model id'), '201');
    await typeInto(byLabel(root, 'Access key'), 'secret-key');
    await click(byName(root, 'button', 'Save dictation settings'));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({
      provider: 'augnito',
      augnito: { account_code: 'acct-1', lm_id: '201', access_key: 'secret-key' },
      recording_retention_days: 90,
    });
    await waitFor(() => expect(root.textContent).toContain('A key is stored.'));
    // The key field is empty again: the stored key is never shown, and an empty field keeps it.
    expect(byLabel(root, 'Access key').value).toBe('');
    await click(byName(root, 'button', 'Save dictation settings'));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]?.augnito).not.toHaveProperty('access_key');
  });

  it("shows the server's refusal on the field it names", async () => {
    const root = await showPanel(true);
    await click(radio(root, 'augnito'));
    refusal = {
      status: 400,
      body: {
        error: {
          code: 'VALIDATION_FAILED',
          message: 'augnito.lm_id: is required to use Augnito',
          details: { field: 'augnito.lm_id' },
        },
      },
    };
    await click(byName(root, 'button', 'Save dictation settings'));
    await waitFor(() =>
      expect(errorOf(byLabel(root, 'Language model id'))).toBe('Is required to use Augnito'),
    );
  });

  it('warns that browser speech sends audio to the browser vendor, and shows the language model', async () => {
    stored = {
      ...stored,
      provider: 'pocketsphinx',
      pocketsphinx_available: true,
      language_model: { built_at: '2026-11-26T09:00:00.000Z', words: 1234, sentences: 567 },
    };
    const root = await showPanel(true);
    expect(root.textContent).toMatch(/1,234 words from 567 sentences/);
    await click(byName(root, 'button', 'Let users choose the browser’s own speech recognition'));
    expect(root.textContent).toContain('Their audio then goes to the browser’s vendor.');
    await click(radio(root, 'browser'));
    expect(root.textContent).toContain('Patient audio leaves your network');
  });

  it('is read-only for a facility administrator', async () => {
    const root = await showPanel(false);
    expect(root.querySelector('button[type="submit"]')).toBeNull();
    expect(root.textContent).toContain('Only the organisation’s administrators change these.');
    expect(radio(root, 'off').closest('fieldset')?.disabled).toBe(true);
  });
});
