import { reportExtensions } from '@ris/editor';
import { EditorContent, useEditor } from '@tiptap/react';
import { RICH_TEXT_CONTENT_CLASS } from '../../components/rich-text/rich-text-content.ts';
import { authedImages } from './authed-images.ts';
import { withAuthedImages } from './editor/authed-image.ts';

/**
 * Report HTML shown read-only through the report's own document model (so nothing outside it — a
 * script, a handler — can render), key images loaded with the bearer token.
 */
export function ReportHtmlView({ html, label }: { html: string; label: string }) {
  const editor = useEditor(
    {
      extensions: withAuthedImages(reportExtensions(), authedImages),
      content: html,
      editable: false,
      editorProps: {
        attributes: { class: RICH_TEXT_CONTENT_CLASS, role: 'article', 'aria-label': label },
      },
    },
    [html],
  );
  return <EditorContent editor={editor} />;
}
