// @vitest-environment happy-dom
import { reportExtensions } from '@ris/editor';
import { Editor } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { afterEach, describe, expect, it } from 'vitest';
import { MacroExpansion, expandMacroBeforeCaret, type TMacroLike } from './macro-expansion.ts';

const MACROS: TMacroLike[] = [
  { short_key: 'nad', value: '<p>No abnormality detected.</p>' },
  { short_key: 'Corr', value: '<p>Suggested <strong>clinical</strong> correlation.</p>' },
  { short_key: 'imp', value: '<h2>Impression</h2><ul><li><p>First point</p></li></ul>' },
];

const editors: Editor[] = [];
afterEach(() => {
  for (const editor of editors.splice(0)) editor.destroy();
});

function editorWith(html: string, macros: readonly TMacroLike[] = MACROS): Editor {
  const editor = new Editor({
    extensions: [...reportExtensions(), MacroExpansion.configure({ getMacros: () => macros })],
    content: html,
  });
  editors.push(editor);
  return editor;
}

/** Puts the caret at the end of the first text block containing `text`. */
function caretAfter(editor: Editor, text: string): void {
  let position = -1;
  editor.state.doc.descendants((node, pos) => {
    if (position >= 0 || !node.isText || !node.text?.includes(text)) return;
    position = pos + node.text.indexOf(text) + text.length;
  });
  if (position < 0) throw new Error(`no "${text}" in the document`);
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, position)));
}

/** Sends a key press through the editor's keymaps, as the browser would. */
function press(editor: Editor, key: string): boolean {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
  let handled = false;
  editor.view.someProp('handleKeyDown', (handler) => {
    handled = handler(editor.view, event) || handled;
    return handled;
  });
  return handled;
}

describe('macro expansion', () => {
  it('replaces a short key before the caret with the macro on Space, keeping a space after it', () => {
    const editor = editorWith('<p>Brain: nad</p>');
    caretAfter(editor, 'nad');
    expect(press(editor, ' ')).toBe(true);
    expect(editor.getHTML()).toBe('<p>Brain: No abnormality detected. </p>');
    // The caret is after the inserted text and its space: typing continues there.
    editor.commands.insertContent('More.');
    expect(editor.getHTML()).toBe('<p>Brain: No abnormality detected. More.</p>');
  });

  it('expands on Tab without adding a space, case-insensitively, keeping inline marks', () => {
    const editor = editorWith('<p>CORR</p>');
    caretAfter(editor, 'CORR');
    expect(press(editor, 'Tab')).toBe(true);
    expect(editor.getHTML()).toBe('<p>Suggested <strong>clinical</strong> correlation.</p>');
  });

  it('inserts block macros (heading, list) as blocks', () => {
    const editor = editorWith('<p>Findings.</p><p>imp</p>');
    caretAfter(editor, 'imp');
    expect(press(editor, 'Tab')).toBe(true);
    expect(editor.getHTML()).toContain('<h2>Impression</h2><ul><li><p>First point</p></li></ul>');
    expect(editor.getHTML()).not.toContain('imp<');
    expect(editor.getHTML().startsWith('<p>Findings.</p>')).toBe(true);
  });

  it('leaves words that only contain a key, unknown words and selections alone', () => {
    const editor = editorWith('<p>gonad</p>');
    caretAfter(editor, 'gonad');
    expect(press(editor, ' ')).toBe(false);
    expect(editor.getHTML()).toBe('<p>gonad</p>');

    const other = editorWith('<p>see nad</p>');
    other.commands.setTextSelection({ from: 5, to: 8 });
    expect(expandMacroBeforeCaret(other, MACROS, 'space')).toBe(false);
    expect(other.getHTML()).toBe('<p>see nad</p>');
  });

  it('does nothing in a read-only editor or without macros', () => {
    const editor = editorWith('<p>nad</p>');
    caretAfter(editor, 'nad');
    editor.setEditable(false);
    expect(expandMacroBeforeCaret(editor, MACROS, 'space')).toBe(false);
    const empty = editorWith('<p>nad</p>', []);
    caretAfter(empty, 'nad');
    expect(press(empty, 'Tab')).toBe(false);
    expect(empty.getHTML()).toBe('<p>nad</p>');
  });

  it('reads the macros at each key press (they arrive after the editor started)', () => {
    const macros: TMacroLike[] = [];
    const editor = editorWith('<p>fu6</p>', macros);
    caretAfter(editor, 'fu6');
    expect(press(editor, ' ')).toBe(false);
    macros.push({ short_key: 'fu6', value: '<p>Follow-up in 6 months.</p>' });
    expect(press(editor, ' ')).toBe(true);
    expect(editor.getHTML()).toBe('<p>Follow-up in 6 months. </p>');
  });
});
