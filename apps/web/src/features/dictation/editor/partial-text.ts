// The engine's current guess shown greyed at the caret: a ProseMirror widget decoration, never part
// of the document (co-editors do not see it, nothing is saved).
import type { Editor } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';

export const partialTextKey = new PluginKey<string>('dictationPartial');

function widget(text: string): HTMLElement {
  const element = document.createElement('span');
  element.className = 'dictation-partial text-fg-subtle italic';
  element.setAttribute('data-dictation-partial', '');
  element.setAttribute('aria-hidden', 'true');
  element.textContent = text;
  return element;
}

/** The plugin holding the partial text (empty: nothing shown). */
export function partialTextPlugin(): Plugin<string> {
  return new Plugin<string>({
    key: partialTextKey,
    state: {
      init: () => '',
      apply: (tr, value) => {
        const next: unknown = tr.getMeta(partialTextKey);
        return typeof next === 'string' ? next : value;
      },
    },
    props: {
      decorations(state: EditorState) {
        const text = partialTextKey.getState(state) ?? '';
        if (text === '') return null;
        const at = state.selection.to;
        const before = state.doc.resolve(at).parent.textBetween(0, state.doc.resolve(at).parentOffset);
        const shown = before !== '' && !/\s$/.test(before) ? ` ${text}` : text;
        return DecorationSet.create(state.doc, [
          Decoration.widget(at, () => widget(shown), {
            side: 1,
            key: `partial:${shown}`,
            ignoreSelection: true,
          }),
        ]);
      },
    },
  });
}

/** Shows (or with '' hides) the partial text at the caret. */
export function showPartialText(editor: Editor, text: string): void {
  if (editor.isDestroyed) return;
  if ((partialTextKey.getState(editor.state) ?? '') === text) return;
  editor.view.dispatch(editor.state.tr.setMeta(partialTextKey, text).setMeta('addToHistory', false));
}

/** The partial text shown now ('' when none). */
export function partialTextOf(editor: Editor): string {
  return partialTextKey.getState(editor.state) ?? '';
}
