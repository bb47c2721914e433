import { reportExtensions } from '@ris/editor';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { cn } from '../ui/cn.ts';
import { EditorToolbar } from './editor-toolbar.tsx';
import { RICH_TEXT_CONTENT_CLASS } from './rich-text-content.ts';

export interface RichTextEditorProps {
  /** The document as HTML. A new value from outside (e.g. a loaded record) replaces the content. */
  value: string;
  /** Called with the editor's HTML after every change. */
  onChange: (html: string) => void;
  /** Accessible name of the editing area (e.g. 'Template content'). */
  ariaLabel: string;
  /** Shown while the document is empty. */
  placeholder?: string;
  /** Minimum height of the editing area; a number is pixels. Default 240. */
  minHeight?: number | string;
  /** False shows the document read-only, without the toolbar. Default true. */
  editable?: boolean;
  /** Extra controls at the end of the toolbar. */
  toolbarExtra?: ReactNode;
  /** Marks the editor invalid (red border) and links its error text, like a form field. */
  invalid?: boolean;
  describedBy?: string;
  /** id of the editing element, for a <label htmlFor>. */
  id?: string;
  className?: string;
}

/** The empty document TipTap produces; treated as '' so a blank editor matches an empty value. */
const EMPTY_DOCUMENT = '<p></p>';

function normalise(html: string): string {
  return html === EMPTY_DOCUMENT ? '' : html;
}

/**
 * A non-collaborative report editor: the report document model (@ris/editor reportExtensions), the
 * formatting toolbar and the shared report styles. Used for templates and macros.
 */
export function RichTextEditor({
  value,
  onChange,
  ariaLabel,
  placeholder,
  minHeight = 240,
  editable = true,
  toolbarExtra,
  invalid = false,
  describedBy,
  id,
  className,
}: RichTextEditorProps) {
  // The HTML this editor last produced or was given: an equal `value` is not applied again (that
  // would reset the caret on every keystroke).
  const lastHtml = useRef(value);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  const attributes = useMemo(() => {
    const result: Record<string, string> = {
      class: RICH_TEXT_CONTENT_CLASS,
      role: 'textbox',
      'aria-multiline': 'true',
      'aria-label': ariaLabel,
      style: `min-height: ${typeof minHeight === 'number' ? `${minHeight}px` : minHeight}`,
    };
    if (placeholder) result['aria-placeholder'] = placeholder;
    if (invalid) result['aria-invalid'] = 'true';
    if (describedBy) result['aria-describedby'] = describedBy;
    if (id) result.id = id;
    if (!editable) result['aria-readonly'] = 'true';
    return result;
  }, [ariaLabel, minHeight, placeholder, invalid, describedBy, id, editable]);

  const editor = useEditor(
    {
      extensions: reportExtensions(),
      content: value,
      editable,
      editorProps: { attributes },
      onUpdate: ({ editor: current }) => {
        const html = normalise(current.getHTML());
        lastHtml.current = html;
        onChangeRef.current(html);
      },
    },
    [],
  );

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.setOptions({ editorProps: { attributes } });
  }, [editor, attributes]);

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    if (editor.isEditable !== editable) editor.setEditable(editable, false);
  }, [editor, editable]);

  useEffect(() => {
    if (!editor || editor.isDestroyed || value === lastHtml.current) return;
    lastHtml.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  const isEmpty = useEditorState({ editor, selector: ({ editor: current }) => current?.isEmpty ?? true });

  return (
    <div
      className={cn(
        'flex flex-col overflow-hidden rounded-md border bg-surface shadow-xs',
        'focus-within:border-accent focus-within:outline-2 focus-within:outline-focus/40',
        invalid ? 'border-danger' : 'border-line-strong',
        className,
      )}
    >
      {editable ? <EditorToolbar editor={editor} extra={toolbarExtra} /> : null}
      <div className="relative">
        {placeholder && isEmpty ? (
          <p aria-hidden="true" className="pointer-events-none absolute top-4 left-5 text-sm text-fg-subtle">
            {placeholder}
          </p>
        ) : null}
        <EditorContent editor={editor} className="px-5 py-4 [&_.ProseMirror]:outline-none" />
      </div>
    </div>
  );
}
