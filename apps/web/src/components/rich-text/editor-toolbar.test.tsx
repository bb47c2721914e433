// @vitest-environment happy-dom
import { reportExtensions } from '@ris/editor';
import { Editor } from '@tiptap/core';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { insertPageBreak } from './editor-commands.ts';
import { EditorToolbar } from './editor-toolbar.tsx';
import { RichTextEditor } from './rich-text-editor.tsx';
import { byName, click, render, typeInto, waitFor, type Rendered } from '../../test/dom.tsx';
import { richTextToPlainText } from './rich-text-content.ts';

let rendered: Rendered | null = null;
let editor: Editor | null = null;

afterEach(async () => {
  await rendered?.unmount();
  editor?.destroy();
  rendered = null;
  editor = null;
});

function newEditor(content: string): Editor {
  editor = new Editor({ element: document.createElement('div'), extensions: reportExtensions(), content });
  return editor;
}

describe('EditorToolbar', () => {
  it('toggles bold on the selection and shows the button pressed', async () => {
    const ed = newEditor('<p>Liver normal</p>');
    const view = await render(<EditorToolbar editor={ed} />);
    rendered = view;
    ed.commands.selectAll();
    const bold = byName(view.container, 'button', 'Bold');
    await waitFor(() => expect(bold.getAttribute('aria-pressed')).toBe('false'));

    await click(bold);
    expect(ed.getHTML()).toBe('<p><strong>Liver normal</strong></p>');
    await waitFor(() => expect(bold.getAttribute('aria-pressed')).toBe('true'));

    await click(bold);
    expect(ed.getHTML()).toBe('<p>Liver normal</p>');
    await waitFor(() => expect(bold.getAttribute('aria-pressed')).toBe('false'));
  });

  it('applies italic, underline, strike, headings, alignment and lists', async () => {
    const ed = newEditor('<p>Impression</p>');
    const view = await render(<EditorToolbar editor={ed} />);
    rendered = view;
    ed.commands.setTextSelection({ from: 1, to: 11 });
    for (const label of ['Italic', 'Underline', 'Strikethrough', 'Align center']) {
      await click(byName(view.container, 'button', label));
    }
    expect(ed.getHTML()).toBe('<p style="text-align: center;"><em><s><u>Impression</u></s></em></p>');
    await waitFor(() =>
      expect(byName(view.container, 'button', 'Align center').getAttribute('aria-pressed')).toBe('true'),
    );

    await typeInto(byName<HTMLSelectElement>(view.container, 'select', 'Text style'), 'h2');
    expect(ed.getHTML()).toContain('<h2 style="text-align: center;"><em><s><u>Impression</u></s></em></h2>');

    await typeInto(byName<HTMLSelectElement>(view.container, 'select', 'Text style'), 'paragraph');
    await click(byName(view.container, 'button', 'Bullet list'));
    expect(ed.isActive('bulletList')).toBe(true);
    await waitFor(() =>
      expect(byName(view.container, 'button', 'Bullet list').getAttribute('aria-pressed')).toBe('true'),
    );
  });

  it('undoes and redoes through the history, and disables everything when read-only', async () => {
    const ed = newEditor('<p>Text</p>');
    const view = await render(<EditorToolbar editor={ed} />);
    rendered = view;
    const undo = byName<HTMLButtonElement>(view.container, 'button', 'Undo');
    expect(undo.disabled).toBe(true);
    ed.commands.selectAll();
    await click(byName(view.container, 'button', 'Bold'));
    await waitFor(() => expect(undo.disabled).toBe(false));
    await click(undo);
    expect(ed.getHTML()).toBe('<p>Text</p>');
    await click(byName(view.container, 'button', 'Redo'));
    expect(ed.getHTML()).toBe('<p><strong>Text</strong></p>');

    await act(async () => ed.setEditable(false));
    await waitFor(() =>
      expect(byName<HTMLButtonElement>(view.container, 'button', 'Bold').disabled).toBe(true),
    );
  });
});

describe('insertPageBreak', () => {
  it('leaves the caret after the break, so typing does not replace it', async () => {
    for (const [content, caret, expected] of [
      ['<p>Before</p>', 7, '<p>Before</p><div data-type="page-break" class="page-break"></div><p>X</p>'],
      [
        '<p>Before</p><p>Next</p>',
        7,
        '<p>Before</p><div data-type="page-break" class="page-break"></div><p>XNext</p>',
      ],
      ['<p>Before</p>', 4, '<p>Bef</p><div data-type="page-break" class="page-break"></div><p>Xore</p>'],
    ] as const) {
      const ed = newEditor(content);
      ed.commands.setTextSelection(caret);
      expect(insertPageBreak(ed)).toBe(true);
      ed.commands.insertContent('X');
      expect(ed.getHTML()).toContain(expected);
      ed.destroy();
    }
  });
});

describe('RichTextEditor', () => {
  it('reports the HTML of a change made from its toolbar', async () => {
    const onChange = vi.fn<(html: string) => void>();
    const view = await render(
      <RichTextEditor value="<p>Findings</p>" onChange={onChange} ariaLabel="Content" />,
    );
    rendered = view;
    const area = view.container.querySelector('[role="textbox"]');
    expect(area?.getAttribute('aria-label')).toBe('Content');
    expect(area?.textContent).toBe('Findings');

    await click(byName(view.container, 'button', 'Page break'));
    const html = onChange.mock.lastCall?.[0] ?? '';
    expect(html).toContain('<div data-type="page-break" class="page-break"></div>');
    expect(html).toContain('Findings');
  });

  it('takes a new value from outside without reporting it as a change', async () => {
    const onChange = vi.fn<(html: string) => void>();
    const view = await render(<RichTextEditor value="" onChange={onChange} ariaLabel="Content" />);
    rendered = view;
    await view.rerender(<RichTextEditor value="<h2>Loaded</h2>" onChange={onChange} ariaLabel="Content" />);
    await waitFor(() => expect(view.container.querySelector('h2')?.textContent).toBe('Loaded'));
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('richTextToPlainText', () => {
  it('keeps words of separate blocks apart and decodes entities', () => {
    expect(richTextToPlainText('<p>No&nbsp;focal</p><ul><li><p>lesion</p></li></ul><p>A &amp; B</p>')).toBe(
      'No focal lesion A & B',
    );
  });
});
