import { createNodeFromContent, type Editor } from '@tiptap/core';
import { Fragment } from '@tiptap/pm/model';

/**
 * The content a piece of HTML (a macro, a dictated template) inserts at the caret: a single
 * paragraph's inline content joins the current line, several blocks (or a list, a table) are
 * inserted as blocks.
 */
export function insertableContent(editor: Editor, html: string): Fragment {
  const parsed = createNodeFromContent(html, editor.schema, { parseOptions: { preserveWhitespace: 'full' } });
  const fragment = parsed instanceof Fragment ? parsed : Fragment.from(parsed);
  const only = fragment.childCount === 1 ? fragment.firstChild : null;
  return only?.type.name === 'paragraph' ? only.content : fragment;
}
