// @vitest-environment happy-dom
import type { TDictationSegment } from '@ris/domain';
import { REPORT_FRAGMENT, reportExtensions } from '@ris/editor';
import { Editor } from '@tiptap/core';
import Collaboration from '@tiptap/extension-collaboration';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { applySegments, matchByName, spacedText, type TDictationContext } from './apply-segments.ts';
import { partialTextOf, partialTextPlugin, showPartialText } from './partial-text.ts';

const editors: Editor[] = [];
afterEach(() => {
  for (const editor of editors.splice(0)) editor.destroy();
});

/** A collaborative editor as in the reporting screen (the Yjs undo manager, no own history). */
function collaborativeEditor(doc: Y.Doc): Editor {
  const editor = new Editor({
    extensions: [
      ...reportExtensions({ collaboration: true }),
      Collaboration.configure({ document: doc, field: REPORT_FRAGMENT }),
    ],
  });
  editors.push(editor);
  return editor;
}

/** Two editors of one report, their Yjs documents connected as the collaboration server does. */
function coEditors(html: string): [Editor, Editor] {
  const [docA, docB] = [new Y.Doc(), new Y.Doc()];
  docA.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== 'remote') Y.applyUpdate(docB, update, 'remote');
  });
  docB.on('update', (update: Uint8Array, origin: unknown) => {
    if (origin !== 'remote') Y.applyUpdate(docA, update, 'remote');
  });
  const a = collaborativeEditor(docA);
  const b = collaborativeEditor(docB);
  a.commands.setContent(html);
  return [a, b];
}

function caretAfter(editor: Editor, text: string): void {
  let position = -1;
  editor.state.doc.descendants((node, pos) => {
    if (position >= 0 || !node.isText || !node.text?.includes(text)) return;
    position = pos + node.text.indexOf(text) + text.length;
  });
  if (position < 0) throw new Error(`no "${text}" in the document`);
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, position)));
}

const text = (value: string): TDictationSegment => ({ kind: 'text', text: value });
const command = (name: Extract<TDictationSegment, { kind: 'command' }>['command'], argument?: string) =>
  ({ kind: 'command', command: name, ...(argument ? { argument } : {}) }) as TDictationSegment;

function context(
  overrides: Partial<TDictationContext> = {},
): TDictationContext & { notices: string[]; stopped: number } {
  const notices: string[] = [];
  const result = {
    findTemplate: async (name: string) =>
      matchByName([{ name: 'Chest X-ray – normal', content: '<h2>Findings</h2><p>Lungs clear.</p>' }], name),
    macros: () => [{ short_key: 'nad', value: '<p>No abnormality detected.</p>' }],
    stop: () => (result.stopped += 1),
    notice: (message: string) => notices.push(message),
    last: { insertion: null },
    notices,
    stopped: 0,
    ...overrides,
  };
  return result;
}

const TEMPLATE =
  '<h2>Findings</h2><p>Liver measures [size] cm.</p><p></p><h2>Impression</h2><p>Normal.</p><h2>Advice</h2><p>None.</p>';

describe('dictation into the report', () => {
  it('inserts final text at the caret as an edit the co-editor receives, spaced and capitalised', async () => {
    const [a, b] = coEditors('<p>Heart normal.</p>');
    caretAfter(a, 'Heart normal.');
    const ctx = context();
    await applySegments(a, [text('no pleural effusion.')], ctx);
    await applySegments(a, [text('lungs clear')], ctx);
    expect(a.getText()).toBe('Heart normal. No pleural effusion. Lungs clear');
    expect(b.getText()).toBe('Heart normal. No pleural effusion. Lungs clear');
  });

  it('new line, new paragraph, undo and delete that', async () => {
    const [a] = coEditors('<p>Start</p>');
    caretAfter(a, 'Start');
    const ctx = context();
    await applySegments(
      a,
      [command('new-line'), text('second line'), command('new-paragraph'), text('next one')],
      ctx,
    );
    expect(a.getHTML()).toBe('<p>Start<br>Second line</p><p>Next one</p>');
    await applySegments(a, [text('extra words'), command('delete-that')], ctx);
    expect(a.getHTML()).toBe('<p>Start<br>Second line</p><p>Next one</p>');
    // Nothing left to delete: said so, nothing removed.
    await applySegments(a, [command('delete-that')], ctx);
    expect(ctx.notices).toHaveLength(1);
    expect(a.getText()).toContain('Next one');
    await applySegments(a, [command('undo')], ctx);
    expect(a.getText()).not.toContain('Next one');
  });

  it('delete that finds its words again after a co-editor changed the report, and not once they changed', async () => {
    const [a, b] = coEditors('<p>Alpha.</p><p>Omega.</p>');
    caretAfter(a, 'Omega.');
    const ctx = context();
    await applySegments(a, [text('dictated words')], ctx);
    caretAfter(b, 'Alpha.');
    b.commands.insertContent(' Inserted by the co-editor.');
    expect(a.getText()).toContain('Inserted by the co-editor.');
    await applySegments(a, [command('delete-that')], ctx);
    expect(a.getHTML()).toBe('<p>Alpha. Inserted by the co-editor.</p><p>Omega.</p>');

    await applySegments(a, [text('more words')], ctx);
    caretAfter(b, 'More');
    b.commands.insertContent('X');
    await applySegments(a, [command('delete-that')], ctx);
    expect(b.getText()).toContain('Omega. MoreX words');
    expect(ctx.notices).toHaveLength(1);
  });

  it('next field selects the next bracketed field (replaced by what is said) or empty paragraph', async () => {
    const [a] = coEditors(TEMPLATE);
    a.commands.setTextSelection(1);
    const ctx = context();
    await applySegments(a, [command('next-field'), text('14')], ctx);
    expect(a.getText()).toContain('Liver measures 14 cm.');
    await applySegments(a, [command('next-field'), text('spleen normal')], ctx);
    expect(a.getHTML()).toContain('<p>Liver measures 14 cm.</p><p>Spleen normal</p>');
    // No field left after it: back to… none at all.
    await applySegments(a, [command('next-field')], ctx);
    expect(ctx.notices).toEqual(['This report has no field to go to.']);
  });

  it('go to impression puts the caret at the end of its section', async () => {
    const [a] = coEditors(TEMPLATE);
    a.commands.setTextSelection(1);
    await applySegments(a, [command('go-to-impression'), text('no acute abnormality')], context());
    expect(a.getHTML()).toContain('<h2>Impression</h2><p>Normal. No acute abnormality</p><h2>Advice</h2>');
    const [b] = coEditors('<h2>Impression</h2><h2>Next</h2>');
    await applySegments(b, [command('go-to-impression'), text('fine')], context());
    expect(b.getHTML()).toContain('<h2>Impression</h2><p>Fine</p><h2>Next</h2>');
    const ctx = context();
    const [c] = coEditors('<p>No headings</p>');
    await applySegments(c, [command('go-to-impression')], ctx);
    expect(ctx.notices).toEqual(['This report has no Impression heading.']);
  });

  it('inserts a template by its spoken name and a macro by its short key; says when there is none', async () => {
    const [a] = coEditors('<p>Intro</p>');
    caretAfter(a, 'Intro');
    const ctx = context();
    await applySegments(a, [command('new-paragraph'), command('insert-template', 'chest x ray normal')], ctx);
    expect(a.getHTML()).toContain('<h2>Findings</h2><p>Lungs clear.</p>');
    await applySegments(a, [command('insert-macro', 'NAD')], ctx);
    expect(a.getText()).toContain('No abnormality detected.');
    await applySegments(a, [command('insert-template', 'knee'), command('insert-macro', 'zz')], ctx);
    expect(ctx.notices).toEqual(['No template named “knee”.', 'No macro with the short key “zz”.']);
  });

  it('stop dictation stops; a read-only editor is left alone', async () => {
    const [a] = coEditors('<p>Fixed</p>');
    const ctx = context();
    await applySegments(a, [command('stop-dictation')], ctx);
    expect(ctx.stopped).toBe(1);
    a.setEditable(false);
    await applySegments(a, [text('ignored')], ctx);
    expect(a.getText()).toBe('Fixed');
  });

  it('shows partial text at the caret without writing it into the document', () => {
    const [a, b] = coEditors('<p>Base</p>');
    a.registerPlugin(partialTextPlugin());
    caretAfter(a, 'Base');
    showPartialText(a, 'maybe words');
    expect(partialTextOf(a)).toBe('maybe words');
    expect(a.view.dom.querySelector('[data-dictation-partial]')?.textContent).toBe(' maybe words');
    expect(a.getText()).toBe('Base');
    expect(b.getText()).toBe('Base');
    showPartialText(a, '');
    expect(a.view.dom.querySelector('[data-dictation-partial]')).toBeNull();
  });
});

describe('dictation text helpers', () => {
  it('spaces and capitalises', () => {
    expect(spacedText('', 'no effusion')).toBe('No effusion');
    expect(spacedText('Heart normal.', 'lungs')).toBe(' Lungs');
    expect(spacedText('Heart ', 'normal')).toBe('normal');
    expect(spacedText('Heart', ', lungs')).toBe(', lungs');
    expect(spacedText('x', '   ')).toBe('');
    expect(spacedText('Start\ufffc', 'second')).toBe('Second');
    expect(spacedText('The liver is', 'Normal in size.')).toBe(' normal in size.');
    expect(spacedText('Seen on', 'MRI')).toBe(' MRI');
    expect(spacedText('Seen on', 'I think')).toBe(' I think');
  });

  it('matches names case-insensitively, ignoring punctuation', () => {
    const items = [{ name: 'CT Brain – normal' }, { name: 'CT Chest' }, { name: 'MRI Knee' }];
    expect(matchByName(items, 'ct brain normal')?.name).toBe('CT Brain – normal');
    expect(matchByName(items, 'mri')?.name).toBe('MRI Knee');
    expect(matchByName(items, 'ct')).toBeNull();
    expect(matchByName(items, '')).toBeNull();
  });
});
