import { macroBeforeCaret } from '@ris/domain';
import { Extension, type Editor } from '@tiptap/core';
import { insertableContent } from '../../../components/rich-text/insertable-content.ts';

export interface TMacroLike {
  short_key: string;
  value: string;
}

export interface MacroExpansionOptions {
  /** The user's macros, read at each key press (they load after the editor starts). */
  getMacros: () => readonly TMacroLike[];
}

/**
 * Expands the macro whose short key is right before the caret (spec: typing a short key then Space
 * or Tab): the key is replaced by the macro's content. Space keeps a space after inline content so
 * typing flows on; Tab only expands. Without a matching key the key press does what it always does.
 */
export function expandMacroBeforeCaret(
  editor: Editor,
  macros: readonly TMacroLike[],
  trigger: 'space' | 'tab',
): boolean {
  if (!editor.isEditable || macros.length === 0) return false;
  const { selection } = editor.state;
  if (!selection.empty) return false;
  const { $from } = selection;
  if (!$from.parent.isTextblock) return false;
  const textBefore = $from.parent.textBetween(0, $from.parentOffset, undefined, '\ufffc');
  const found = macroBeforeCaret(textBefore, macros);
  if (!found) return false;
  const content = insertableContent(editor, found.macro.value);
  const inline = content.childCount === 0 || content.firstChild?.isInline === true;
  const range = { from: selection.from - found.length, to: selection.from };
  const chain = editor.chain().insertContentAt(range, content, { updateSelection: true });
  if (trigger === 'space' && inline) chain.insertContent(' ');
  return chain.run();
}

/** Space / Tab macro expansion; runs before list indentation (Tab) and plain typing (Space). */
export const MacroExpansion = Extension.create<MacroExpansionOptions>({
  name: 'macroExpansion',
  priority: 1000,
  addOptions() {
    return { getMacros: () => [] };
  },
  addKeyboardShortcuts() {
    return {
      Space: () => expandMacroBeforeCaret(this.editor, this.options.getMacros(), 'space'),
      Tab: () => expandMacroBeforeCaret(this.editor, this.options.getMacros(), 'tab'),
    };
  },
});
