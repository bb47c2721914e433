// @vitest-environment happy-dom
import type { TRecording, TSpeechOptions } from '@ris/domain';
import { reportExtensions } from '@ris/editor';
import { Editor } from '@tiptap/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byName, click, render, waitFor, type Rendered } from '../../test/dom.tsx';
import { fakeApi, type RecordedRequest } from '../templates/test-app.tsx';
import { DictationControls, meterShare } from './dictation-controls.tsx';
import { RecordingsPanel, transcriptContent } from './recordings-panel.tsx';

const REPORT_ID = '00000000-0000-4000-8000-00000000a001';
const USER_ID = '00000000-0000-4000-8000-0000000000a1';
const SOURCES = { findTemplate: async () => null, macros: () => [] };

let view: Rendered | null = null;
const editors: Editor[] = [];
afterEach(async () => {
  await view?.unmount();
  view = null;
  for (const editor of editors.splice(0)) editor.destroy();
  vi.unstubAllGlobals();
});

function editorWith(html: string): Editor {
  const editor = new Editor({ extensions: reportExtensions(), content: html });
  editors.push(editor);
  return editor;
}

async function renderWithQueries(ui: ReactNode): Promise<Rendered> {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  view = await render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
  return view;
}

function speechOptions(options: TSpeechOptions) {
  return fakeApi((request: RecordedRequest) =>
    request.path === '/api/v1/speech/options'
      ? { status: 200, body: options }
      : { status: 404, body: { error: { code: 'NOT_FOUND', message: request.path } } },
  );
}

const recording = (patch: Partial<TRecording>): TRecording => ({
  id: '00000000-0000-4000-8000-00000000b001',
  report_id: REPORT_ID,
  by_user_id: USER_ID,
  by_user_name: 'Dr Asha Rao',
  status: 'TRANSCRIBED',
  duration_seconds: 75,
  content_type: 'audio/wav',
  transcript: 'No focal liver lesion.',
  error: null,
  inserted: false,
  created_at: '2026-11-26T09:30:00.000Z',
  expires_at: '2027-02-24T09:30:00.000Z',
  ...patch,
});

describe('Dictate button', () => {
  it('is offered with the push-to-talk key when the organisation has an engine', async () => {
    speechOptions({ provider: 'pocketsphinx', browser_speech_allowed: false });
    const editor = editorWith('<p>Text</p>');
    const { container } = await renderWithQueries(
      <DictationControls editor={editor} reportId={REPORT_ID} sources={SOURCES} editable />,
    );
    const button = await waitFor(() => byName<HTMLButtonElement>(container, 'button', 'Dictate'));
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(button.title).toContain('hold F4');
    expect(container.textContent).not.toContain('browser’s vendor');
  });

  it("says that the browser's speech sends audio to its vendor", async () => {
    speechOptions({ provider: 'browser', browser_speech_allowed: true });
    const { container } = await renderWithQueries(
      <DictationControls editor={editorWith('')} reportId={REPORT_ID} sources={SOURCES} editable />,
    );
    await waitFor(() => expect(container.textContent).toContain('audio goes to your browser’s vendor'));
  });

  it('is hidden when dictation is off or the report cannot be edited', async () => {
    const { requests } = speechOptions({ provider: 'off', browser_speech_allowed: false });
    const off = await renderWithQueries(
      <DictationControls editor={editorWith('')} reportId={REPORT_ID} sources={SOURCES} editable />,
    );
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(off.container.querySelector('button')).toBeNull();
    await off.unmount();
    speechOptions({ provider: 'pocketsphinx', browser_speech_allowed: false });
    const readOnly = await renderWithQueries(
      <DictationControls editor={editorWith('')} reportId={REPORT_ID} sources={SOURCES} editable={false} />,
    );
    expect(readOnly.container.querySelector('button')).toBeNull();
  });

  it('maps the level to the meter from -60 dBFS to full scale', () => {
    expect(meterShare(0)).toBe(0);
    expect(meterShare(0.001)).toBeCloseTo(0, 5);
    expect(meterShare(1)).toBe(1);
    expect(meterShare(0.1)).toBeCloseTo(2 / 3, 5);
  });
});

describe('Recordings panel', () => {
  it("lists the report's recordings and inserts a transcript at the caret, then marks it inserted", async () => {
    const { requests, writes } = fakeApi((request) => {
      if (request.path === `/api/v1/worklist/augnito/voice-data?report_id=${REPORT_ID}`) {
        return {
          status: 200,
          body: [
            recording({}),
            recording({
              id: '00000000-0000-4000-8000-00000000b002',
              status: 'PENDING',
              transcript: null,
            }),
          ],
        };
      }
      if (request.method === 'PUT') return { status: 200, body: recording({ inserted: true }) };
      return { status: 404, body: { error: { code: 'NOT_FOUND', message: request.path } } };
    });
    const editor = editorWith('<p>Findings:</p>');
    editor.commands.setTextSelection(editor.state.doc.content.size - 1);
    const { container } = await renderWithQueries(
      <RecordingsPanel editor={editor} editable reportId={REPORT_ID} />,
    );
    const items = await waitFor(() => {
      const found = container.querySelectorAll('ul[aria-label="Recordings"] > li');
      expect(found).toHaveLength(2);
      return found;
    });
    expect(items[0]?.textContent).toContain('Transcribed');
    expect(items[0]?.textContent).toContain('1:15');
    expect(items[1]?.textContent).toContain('Transcribing…');
    expect(items[1]?.querySelector('button[aria-label^="Insert"]')).toBeNull();
    await click(byName(container, 'button', "Insert the transcript of Dr Asha Rao's recording"));
    // Mid-sentence (after a colon) the transcript's capital goes.
    expect(editor.getText()).toBe('Findings: no focal liver lesion.');
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]?.path).toBe(
      '/api/v1/worklist/augnito/voice-data/00000000-0000-4000-8000-00000000b001/inserted',
    );
    expect(requests.length).toBeGreaterThan(1);
  });

  it('turns a transcript into text or paragraphs', () => {
    expect(transcriptContent('One line.', '')).toEqual([{ type: 'text', text: 'One line.' }]);
    expect(transcriptContent('one line.', 'Before.')).toEqual([{ type: 'text', text: ' One line.' }]);
    expect(transcriptContent('First.\n\nSecond.', 'x')).toEqual([
      { type: 'paragraph', content: [{ type: 'text', text: 'First.' }] },
      { type: 'paragraph', content: [] },
      { type: 'paragraph', content: [{ type: 'text', text: 'Second.' }] },
    ]);
  });
});
