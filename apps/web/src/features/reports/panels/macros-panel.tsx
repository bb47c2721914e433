import { FALLBACK_ERROR_MESSAGES, type TMacro } from '@ris/domain';
import type { Editor } from '@tiptap/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import { errorMessage } from '../../../api/api-error.ts';
import { richTextToPlainText } from '../../../components/rich-text/rich-text-content.ts';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { insertableContent } from '../../../components/rich-text/insertable-content.ts';

/**
 * The user's macros: a click inserts one at the caret; typing its short key then Space or Tab in the
 * report does the same.
 */
export function MacrosPanel({
  editor,
  editable,
  macros,
}: {
  editor: Editor;
  editable: boolean;
  macros: UseQueryResult<TMacro[]>;
}) {
  const insert = (macro: TMacro): void => {
    editor.chain().focus().insertContent(insertableContent(editor, macro.value)).run();
  };
  if (macros.isPending) {
    return (
      <p className="flex items-center gap-2 text-[12px] text-fg-muted">
        <Spinner /> Loading macros…
      </p>
    );
  }
  if (macros.isError) {
    return (
      <p className="text-[12px] text-danger">
        {errorMessage(macros.error, FALLBACK_ERROR_MESSAGES.fetchUser)}
      </p>
    );
  }
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <p className="text-[12px] text-fg-subtle">
        Type a short key then Space or Tab in the report, or click a macro to insert it.
      </p>
      {macros.data.length === 0 ? (
        <p className="text-[12px] text-fg-subtle">
          No macros yet.{' '}
          <Link to="/macro/new" className="text-accent hover:underline">
            Create one
          </Link>
        </p>
      ) : (
        <ul aria-label="Macros" className="flex min-h-0 flex-col gap-0.5 overflow-y-auto">
          {macros.data.map((macro) => (
            <li key={macro.id}>
              <button
                type="button"
                disabled={!editable}
                onClick={() => insert(macro)}
                aria-label={`Insert macro ${macro.short_key}`}
                className="flex w-full flex-col rounded px-2 py-1.5 text-left hover:bg-surface-hover disabled:opacity-50"
              >
                <span className="flex items-baseline gap-2">
                  <kbd className="rounded border border-line-strong px-1 font-mono text-[11px] text-fg">
                    {macro.short_key}
                  </kbd>
                  <span className="truncate text-[12px] text-fg-muted">{macro.display_name}</span>
                </span>
                <span className="mt-0.5 line-clamp-2 text-[12px] text-fg-subtle">
                  {richTextToPlainText(macro.value)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
