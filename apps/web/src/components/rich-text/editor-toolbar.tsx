import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import {
  AlignCenter,
  AlignJustify,
  AlignLeft,
  AlignRight,
  Bold,
  Italic,
  List,
  ListOrdered,
  Minus,
  Redo2,
  SeparatorHorizontal,
  Strikethrough,
  TextQuote,
  Underline,
  Undo2,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../ui/cn.ts';
import { TooltipProvider } from '../ui/tooltip.tsx';
import { insertPageBreak } from './editor-commands.ts';
import {
  TableMenu,
  ToolbarButton,
  ToolbarDivider,
  moveToolbarFocus,
  type ToolbarButtonProps,
} from './toolbar-controls.tsx';
import {
  EMPTY_TOOLBAR_STATE,
  readToolbarState,
  type TBlockType,
  type TTextAlignment,
  type ToolbarState,
} from './toolbar-state.ts';

export interface EditorToolbarProps {
  /** The TipTap editor to drive (null while it is being created: the toolbar is then disabled). */
  editor: Editor | null;
  /** Extra controls at the end of the toolbar (e.g. insert image, templates, macros). */
  extra?: ReactNode;
  /** Accessible name of the toolbar; defaults to 'Formatting'. */
  ariaLabel?: string;
  className?: string;
}

const BLOCK_OPTIONS: readonly { value: TBlockType; label: string }[] = [
  { value: 'paragraph', label: 'Paragraph' },
  { value: 'h1', label: 'Heading 1' },
  { value: 'h2', label: 'Heading 2' },
  { value: 'h3', label: 'Heading 3' },
];

/** Turns the selected blocks into paragraphs or headings, keeping their alignment. */
function setBlock(editor: Editor, block: TBlockType, align: TTextAlignment | null): void {
  const chain = editor.chain().focus();
  if (block === 'paragraph') chain.setParagraph();
  else chain.setHeading({ level: Number(block.slice(1)) as 1 | 2 | 3 });
  if (align) chain.setTextAlign(align);
  chain.run();
}

type MarkKey = 'bold' | 'italic' | 'underline' | 'strike';

const MARKS: readonly { key: MarkKey; label: string; icon: LucideIcon; shortcut: string }[] = [
  { key: 'bold', label: 'Bold', icon: Bold, shortcut: 'Ctrl+B' },
  { key: 'italic', label: 'Italic', icon: Italic, shortcut: 'Ctrl+I' },
  { key: 'underline', label: 'Underline', icon: Underline, shortcut: 'Ctrl+U' },
  { key: 'strike', label: 'Strikethrough', icon: Strikethrough, shortcut: 'Ctrl+Shift+S' },
];

function toggleMark(editor: Editor, mark: MarkKey): void {
  const chain = editor.chain().focus();
  if (mark === 'bold') chain.toggleBold().run();
  else if (mark === 'italic') chain.toggleItalic().run();
  else if (mark === 'underline') chain.toggleUnderline().run();
  else chain.toggleStrike().run();
}

const ALIGNMENTS: readonly { value: TTextAlignment; label: string; icon: LucideIcon }[] = [
  { value: 'left', label: 'Align left', icon: AlignLeft },
  { value: 'center', label: 'Align center', icon: AlignCenter },
  { value: 'right', label: 'Align right', icon: AlignRight },
  { value: 'justify', label: 'Justify', icon: AlignJustify },
];

function blockButtons(editor: Editor, state: ToolbarState): ToolbarButtonProps[] {
  return [
    {
      label: 'Bullet list',
      icon: List,
      active: state.bulletList,
      onClick: () => editor.chain().focus().toggleBulletList().run(),
    },
    {
      label: 'Numbered list',
      icon: ListOrdered,
      active: state.orderedList,
      onClick: () => editor.chain().focus().toggleOrderedList().run(),
    },
    {
      label: 'Quote',
      icon: TextQuote,
      active: state.blockquote,
      onClick: () => editor.chain().focus().toggleBlockquote().run(),
    },
  ];
}

/**
 * The formatting toolbar of a report editor (templates, macros and the reporting workspace):
 * block type, marks, lists, quote, alignment, tables, page break, horizontal rule, undo/redo.
 * Active states come from useEditorState, so the toolbar re-renders only when they change.
 */
export function EditorToolbar({ editor, extra, ariaLabel = 'Formatting', className }: EditorToolbarProps) {
  const state = useEditorState({ editor, selector: ({ editor: current }) => readToolbarState(current) });
  const current = state ?? EMPTY_TOOLBAR_STATE;
  const off = !editor || !current.editable;

  return (
    <TooltipProvider delayDuration={400}>
      <div
        role="toolbar"
        aria-label={ariaLabel}
        aria-disabled={off || undefined}
        onKeyDown={moveToolbarFocus}
        className={cn(
          'flex flex-wrap items-center gap-0.5 border-b border-line bg-surface-raised px-1.5 py-1',
          className,
        )}
      >
        <select
          aria-label="Text style"
          className="h-7 rounded border border-line-strong bg-surface px-1.5 text-[13px] text-fg disabled:opacity-40"
          disabled={off}
          value={current.block === 'other' ? '' : current.block}
          onChange={(event) => editor && setBlock(editor, event.target.value as TBlockType, current.align)}
        >
          {current.block === 'other' ? <option value="">—</option> : null}
          {BLOCK_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ToolbarDivider />
        {MARKS.map((mark) => (
          <ToolbarButton
            key={mark.key}
            label={mark.label}
            icon={mark.icon}
            shortcut={mark.shortcut}
            active={current[mark.key]}
            disabled={off}
            onClick={() => editor && toggleMark(editor, mark.key)}
          />
        ))}
        <ToolbarDivider />
        {editor
          ? blockButtons(editor, current).map((button) => (
              <ToolbarButton key={button.label} {...button} disabled={off} />
            ))
          : null}
        <ToolbarDivider />
        {ALIGNMENTS.map((align) => (
          <ToolbarButton
            key={align.value}
            label={align.label}
            icon={align.icon}
            active={current.align === align.value}
            disabled={off}
            onClick={() => editor?.chain().focus().setTextAlign(align.value).run()}
          />
        ))}
        <ToolbarDivider />
        {editor ? <TableMenu editor={editor} inTable={current.inTable} disabled={off} /> : null}
        <ToolbarButton
          label="Page break"
          icon={SeparatorHorizontal}
          disabled={off}
          onClick={() => editor && insertPageBreak(editor)}
        />
        <ToolbarButton
          label="Horizontal line"
          icon={Minus}
          disabled={off}
          onClick={() => editor?.chain().focus().setHorizontalRule().run()}
        />
        {current.hasHistory ? (
          <>
            <ToolbarDivider />
            <ToolbarButton
              label="Undo"
              icon={Undo2}
              shortcut="Ctrl+Z"
              disabled={off || !current.canUndo}
              onClick={() => editor?.chain().focus().undo().run()}
            />
            <ToolbarButton
              label="Redo"
              icon={Redo2}
              shortcut="Ctrl+Shift+Z"
              disabled={off || !current.canRedo}
              onClick={() => editor?.chain().focus().redo().run()}
            />
          </>
        ) : null}
        {extra ? (
          <>
            <ToolbarDivider />
            <div className="flex items-center gap-0.5">{extra}</div>
          </>
        ) : null}
      </div>
    </TooltipProvider>
  );
}
