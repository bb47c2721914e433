import { parseDictation, type TSpeechProvider } from '@ris/domain';
import type { Editor } from '@tiptap/core';
import { useQuery } from '@tanstack/react-query';
import { Mic, MicOff } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { cn } from '../../components/ui/cn.ts';
import { dictationApi, dictationKeys } from './dictation-api.ts';
import type { TDictationSources } from './editor/apply-segments.ts';
import { useDictation, type TDictationStatus } from './use-dictation.ts';

/** The push-to-talk key: held down, it dictates; released, it stops (foot pedals map to it). */
export const PUSH_TO_TALK_KEY = 'F4';

const STATUS_LABELS: Record<TDictationStatus, string> = {
  idle: '',
  starting: 'Connecting…',
  listening: 'Listening',
  stopping: 'Finishing…',
};

/** The level as a share of the meter: -60 dBFS (silence) to 0 dBFS. */
export function meterShare(level: number): number {
  if (!(level > 0)) return 0;
  return Math.min(1, Math.max(0, (20 * Math.log10(level) + 60) / 60));
}

export interface DictationControlsProps {
  editor: Editor | null;
  reportId: string;
  /** Whether the user may write in the report now (dictation is hidden otherwise). */
  editable: boolean;
  /** Where "insert template" and "insert macro" look. */
  sources: TDictationSources;
}

/**
 * The Dictate button of the report toolbar with its level meter, state and messages. Hidden when the
 * organisation has dictation off or the report cannot be edited.
 */
export function DictationControls({ editor, reportId, editable, sources }: DictationControlsProps) {
  const options = useQuery({
    queryKey: dictationKeys.options,
    queryFn: ({ signal }) => dictationApi.options(signal),
    staleTime: 60_000,
  });
  const provider: TSpeechProvider = options.data?.provider ?? 'off';
  if (!editable || provider === 'off' || !editor) return null;
  return <Dictation editor={editor} reportId={reportId} provider={provider} sources={sources} />;
}

function Dictation({
  editor,
  reportId,
  provider,
  sources,
}: {
  editor: Editor;
  reportId: string;
  provider: TSpeechProvider;
  sources: TDictationSources;
}) {
  const dictation = useDictation({
    editor,
    reportId,
    provider,
    macros: sources.macros,
    findTemplate: sources.findTemplate,
    parse: parseDictation,
  });
  const { status, start, stop } = dictation;
  const active = status !== 'idle';

  // Push-to-talk: hold F4 anywhere in the reporting screen.
  const heldKey = useRef(false);
  useEffect(() => {
    const down = (event: KeyboardEvent) => {
      if (event.key !== PUSH_TO_TALK_KEY) return;
      event.preventDefault();
      if (event.repeat || heldKey.current) return;
      heldKey.current = true;
      start();
    };
    const up = (event: KeyboardEvent) => {
      if (event.key !== PUSH_TO_TALK_KEY || !heldKey.current) return;
      event.preventDefault();
      heldKey.current = false;
      stop();
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
    };
  }, [start, stop]);

  const Icon = active ? MicOff : Mic;
  const share = meterShare(dictation.level);
  return (
    <div className="flex items-center gap-1.5" data-dictation={status}>
      <button
        type="button"
        aria-pressed={active}
        disabled={status === 'stopping'}
        onClick={() => (active ? stop() : start())}
        title={`Dictate into the report at the caret (or hold ${PUSH_TO_TALK_KEY} to talk). Say “new paragraph”, “next field”, “delete that”, “stop dictation”…`}
        className={cn(
          'inline-flex h-7 items-center gap-1.5 rounded px-2 text-[12px]',
          active ? 'bg-danger-soft text-danger' : 'text-fg-muted hover:bg-surface-hover hover:text-fg',
        )}
      >
        <Icon aria-hidden="true" className="size-3.5" /> {active ? 'Stop' : 'Dictate'}
      </button>
      {active ? (
        <>
          <span
            role="meter"
            aria-label="Microphone level"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(share * 100)}
            className="relative h-1.5 w-16 overflow-hidden rounded-full bg-line-strong"
          >
            <span
              className="absolute inset-y-0 left-0 rounded-full bg-accent transition-[width] duration-100"
              style={{ width: `${share * 100}%` }}
            />
          </span>
          <span role="status" className="text-[12px] text-fg-muted">
            {STATUS_LABELS[status]}
          </span>
        </>
      ) : null}
      {provider === 'browser' ? (
        <span
          className="rounded bg-danger-soft px-1.5 py-0.5 text-[11px] text-fg"
          title="The organisation allows the browser's own speech recognition"
        >
          Browser speech: audio goes to your browser’s vendor
        </span>
      ) : null}
      {dictation.message ? (
        <span
          role={dictation.message.kind === 'error' ? 'alert' : 'status'}
          className={cn(
            'max-w-72 truncate text-[12px]',
            dictation.message.kind === 'error' ? 'text-danger' : 'text-fg-muted',
          )}
          title={dictation.message.text}
        >
          {dictation.message.text}
        </span>
      ) : null}
    </div>
  );
}
