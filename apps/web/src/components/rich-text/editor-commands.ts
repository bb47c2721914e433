import type { Editor } from '@tiptap/core';

/** Inserts a page break at the caret; the caret continues in the block after it (see @ris/editor). */
export function insertPageBreak(editor: Editor): boolean {
  return editor.chain().focus().setPageBreak().run();
}
