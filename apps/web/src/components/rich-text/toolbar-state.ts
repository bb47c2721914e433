import type { Editor } from '@tiptap/core';
import type { TEXT_ALIGNMENTS } from '@ris/editor';

export type TTextAlignment = (typeof TEXT_ALIGNMENTS)[number];

/** The block type the heading select shows: a paragraph or a heading level. */
export type TBlockType = 'paragraph' | 'h1' | 'h2' | 'h3';

/** What the toolbar shows as active or enabled, read from the editor on every transaction. */
export interface ToolbarState {
  editable: boolean;
  block: TBlockType | 'other';
  bold: boolean;
  italic: boolean;
  underline: boolean;
  strike: boolean;
  bulletList: boolean;
  orderedList: boolean;
  blockquote: boolean;
  align: TTextAlignment | null;
  inTable: boolean;
  /** Undo/redo exist: the editor's own history, or the Yjs undo manager with collaboration. */
  hasHistory: boolean;
  canUndo: boolean;
  canRedo: boolean;
}

export const EMPTY_TOOLBAR_STATE: ToolbarState = {
  editable: false,
  block: 'paragraph',
  bold: false,
  italic: false,
  underline: false,
  strike: false,
  bulletList: false,
  orderedList: false,
  blockquote: false,
  align: null,
  inTable: false,
  hasHistory: false,
  canUndo: false,
  canRedo: false,
};

const ALIGNMENTS: readonly TTextAlignment[] = ['left', 'center', 'right', 'justify'];

/** True when some extension of the editor registered the command (undo/redo come from two places). */
export function hasCommand(editor: Editor, name: string): boolean {
  return name in editor.commands;
}

function blockOf(editor: Editor): ToolbarState['block'] {
  if (editor.isActive('paragraph')) return 'paragraph';
  for (const level of [1, 2, 3] as const) {
    if (editor.isActive('heading', { level })) return `h${level}`;
  }
  return 'other';
}

/** Reads the toolbar's state from the editor (the selector of useEditorState). */
export function readToolbarState(editor: Editor | null): ToolbarState {
  if (!editor || editor.isDestroyed) return EMPTY_TOOLBAR_STATE;
  const hasHistory = hasCommand(editor, 'undo') && hasCommand(editor, 'redo');
  return {
    editable: editor.isEditable,
    block: blockOf(editor),
    bold: editor.isActive('bold'),
    italic: editor.isActive('italic'),
    underline: editor.isActive('underline'),
    strike: editor.isActive('strike'),
    bulletList: editor.isActive('bulletList'),
    orderedList: editor.isActive('orderedList'),
    blockquote: editor.isActive('blockquote'),
    align: ALIGNMENTS.find((align) => editor.isActive({ textAlign: align })) ?? null,
    inTable: editor.isActive('table'),
    hasHistory,
    canUndo: hasHistory && editor.isEditable && editor.can().undo(),
    canRedo: hasHistory && editor.isEditable && editor.can().redo(),
  };
}
