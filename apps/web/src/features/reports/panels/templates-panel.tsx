import { FALLBACK_ERROR_MESSAGES, MODALITIES, label, type TModality, type TTemplate } from '@ris/domain';
import type { Editor } from '@tiptap/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../api/api-error.ts';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { inputClassName } from '../../../components/ui/text-field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { ReportHtmlView } from '../report-html-view.tsx';
import { reportKeys, reportsApi } from '../reports-api.ts';

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export interface TemplatesPanelProps {
  editor: Editor;
  editable: boolean;
  /** The study's modality group: the filter's default. */
  defaultModality: TModality | null;
}

/**
 * Templates the user may insert (their own, the organisation's, the defaults): search, modality
 * filter, preview, then Insert at the caret or Replace the whole report (after a confirmation).
 */
export function TemplatesPanel({ editor, editable, defaultModality }: TemplatesPanelProps) {
  const [search, setSearch] = useState('');
  const [modality, setModality] = useState<TModality | ''>(defaultModality ?? '');
  const [selected, setSelected] = useState<TTemplate | null>(null);
  const [confirmReplace, setConfirmReplace] = useState(false);
  const term = useDebounced(search, 250);
  const templates = useQuery({
    queryKey: reportKeys.templates(term, modality),
    queryFn: ({ signal }) => reportsApi.templates(term, modality, signal),
    placeholderData: keepPreviousData,
  });
  const items = templates.data?.items ?? [];

  const insert = (template: TTemplate): void => {
    editor.chain().focus().insertContent(template.content).run();
  };
  const replace = (template: TTemplate): void => {
    editor.chain().setContent(template.content).focus('end').run();
    setConfirmReplace(false);
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <div className="flex gap-2">
        <input
          type="search"
          aria-label="Search templates"
          placeholder="Search templates"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className={cn(inputClassName, 'h-8 text-[13px]')}
        />
        <Select
          aria-label="Modality"
          value={modality}
          onChange={(event) => setModality(event.target.value as TModality | '')}
        >
          <option value="">Any</option>
          {MODALITIES.map((group) => (
            <option key={group} value={group}>
              {group}
            </option>
          ))}
        </Select>
      </div>
      {templates.isError ? (
        <p className="text-[12px] text-danger">
          {errorMessage(templates.error, FALLBACK_ERROR_MESSAGES.fetchReport)}
        </p>
      ) : null}
      {templates.isPending ? (
        <p className="flex items-center gap-2 text-[12px] text-fg-muted">
          <Spinner /> Loading templates…
        </p>
      ) : items.length === 0 ? (
        <p className="text-[12px] text-fg-subtle">No templates match.</p>
      ) : (
        <ul aria-label="Templates" className="flex max-h-56 flex-col gap-0.5 overflow-y-auto">
          {items.map((template) => (
            <li key={template.id}>
              <button
                type="button"
                aria-pressed={selected?.id === template.id}
                onClick={() => setSelected(template)}
                className={cn(
                  'flex w-full items-center justify-between gap-2 rounded px-2 py-1.5 text-left text-[13px]',
                  selected?.id === template.id
                    ? 'bg-accent-soft text-fg'
                    : 'text-fg-muted hover:bg-surface-hover',
                )}
              >
                <span className="min-w-0 truncate">{template.name}</span>
                <span className="shrink-0 text-[10.5px] text-fg-subtle uppercase">
                  {template.modality ?? ''} {label(template.scope)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {selected ? (
        <div className="flex min-h-0 flex-1 flex-col gap-2 border-t border-line pt-2">
          <div className="flex items-center justify-between gap-2">
            <h3 className="truncate text-[12px] font-semibold text-fg">{selected.name}</h3>
            <div className="flex shrink-0 gap-1.5">
              <Button size="sm" disabled={!editable} onClick={() => insert(selected)}>
                Insert
              </Button>
              <Button
                size="sm"
                variant="secondary"
                disabled={!editable}
                onClick={() => setConfirmReplace(true)}
              >
                Replace
              </Button>
            </div>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto rounded border border-line bg-canvas/40 px-3 py-2 text-[12px]">
            <ReportHtmlView html={selected.content} label={`Preview of ${selected.name}`} />
          </div>
        </div>
      ) : null}
      <Dialog
        open={confirmReplace && selected !== null}
        onOpenChange={setConfirmReplace}
        title="Replace the report?"
        description={`The whole report text is replaced by “${selected?.name ?? ''}”. Undo brings it back.`}
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirmReplace(false)}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => selected && replace(selected)}>
              Replace
            </Button>
          </>
        }
      >
        <p className="text-[13px] text-fg-muted">Everyone editing this report sees the change.</p>
      </Dialog>
    </div>
  );
}
