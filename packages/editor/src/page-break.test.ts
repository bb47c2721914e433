// @vitest-environment happy-dom
import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { reportExtensions } from './index.ts';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

describe('setPageBreak', () => {
  it('leaves the caret in a paragraph after the break, so typing does not replace it', () => {
    editor = new Editor({ extensions: reportExtensions(), content: '<p>Findings</p>' });
    editor.commands.focus('end');
    editor.commands.setPageBreak();
    editor.commands.insertContent('Impression');
    expect(editor.getHTML()).toBe(
      '<p>Findings</p><div data-type="page-break" class="page-break"></div><p>Impression</p>',
    );
  });

  it('round-trips through HTML', () => {
    editor = new Editor({
      extensions: reportExtensions(),
      content: '<p>a</p><div data-type="page-break"></div><p>b</p>',
    });
    expect(editor.getJSON().content?.map((node) => node.type)).toEqual([
      'paragraph',
      'pageBreak',
      'paragraph',
    ]);
  });
});
