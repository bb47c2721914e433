// Where voice commands move the caret in a report: the next template field ("next field") and the
// end of the Impression section ("go to impression").
import type { Editor } from '@tiptap/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { Selection, TextSelection } from '@tiptap/pm/state';

/** A bracketed template field, e.g. "[size]" or "[...]"; one line, no nested brackets. */
const FIELD = /\[[^[\]\n]*\]/g;
const IMPRESSION = /^\s*(impressions?|conclusions?)\b/i;

/** A textblock's text with one character per document position (inline leaves as U+FFFC). */
export function blockText(block: PmNode): string {
  let text = '';
  block.forEach((child) => {
    text += child.isText ? (child.text ?? '') : '\ufffc'.repeat(child.nodeSize);
  });
  return text;
}

/** Every textblock of the document with the position where its content starts. */
export function textblocks(doc: PmNode): { node: PmNode; start: number }[] {
  const found: { node: PmNode; start: number }[] = [];
  doc.descendants((node, pos) => {
    if (!node.isTextblock) return true;
    found.push({ node, start: pos + 1 });
    return false;
  });
  return found;
}

type TField = { from: number; to: number };

/**
 * Template fields in document order: bracketed text ("[...]"), or an empty paragraph (the demo's
 * templates leave an empty paragraph under each heading for the findings).
 */
function fields(doc: PmNode): TField[] {
  const found: TField[] = [];
  for (const { node, start } of textblocks(doc)) {
    if (node.type.name === 'paragraph' && node.content.size === 0) {
      found.push({ from: start, to: start });
      continue;
    }
    for (const match of blockText(node).matchAll(FIELD)) {
      found.push({ from: start + match.index, to: start + match.index + match[0].length });
    }
  }
  return found;
}

/**
 * Selects the next field after the selection (a bracketed field is selected, so the next words
 * replace it; an empty paragraph gets the caret), wrapping to the first; false when there is none.
 */
export function goToNextField(editor: Editor): boolean {
  const { doc, selection } = editor.state;
  const all = fields(doc);
  const inCurrentEmptyBlock = (field: TField) => field.from === field.to && field.from === selection.from;
  const next =
    all.find((field) => field.from >= selection.to && !inCurrentEmptyBlock(field)) ??
    all.find((field) => !inCurrentEmptyBlock(field));
  if (!next) return false;
  editor.view.dispatch(
    editor.state.tr.setSelection(TextSelection.create(doc, next.from, next.to)).scrollIntoView(),
  );
  return true;
}

/**
 * Puts the caret at the end of the Impression section (the blocks after a heading "Impression" or
 * "Conclusion", up to the next heading of the same or a higher level); a heading with nothing under
 * it gets an empty paragraph. False when the report has no such heading.
 */
export function goToImpression(editor: Editor): boolean {
  const { doc } = editor.state;
  let headingIndex = -1;
  doc.forEach((node, _offset, index) => {
    if (headingIndex === -1 && node.type.name === 'heading' && IMPRESSION.test(node.textContent)) {
      headingIndex = index;
    }
  });
  if (headingIndex === -1) return false;
  const heading = doc.child(headingIndex);
  const level = Number(heading.attrs.level ?? 1);
  let end = 0;
  let lastIndex = headingIndex;
  doc.forEach((node, offset, index) => {
    if (index <= headingIndex) {
      end = offset + node.nodeSize;
      return;
    }
    if (lastIndex !== index - 1) return;
    if (node.type.name === 'heading' && Number(node.attrs.level ?? 1) <= level) return;
    lastIndex = index;
    end = offset + node.nodeSize;
  });
  const { tr } = editor.state;
  const paragraph = editor.schema.nodes.paragraph;
  if (lastIndex === headingIndex && paragraph) {
    tr.insert(end, paragraph.create());
    tr.setSelection(TextSelection.create(tr.doc, end + 1));
  } else {
    tr.setSelection(Selection.near(tr.doc.resolve(end), -1));
  }
  editor.view.dispatch(tr.scrollIntoView());
  return true;
}
