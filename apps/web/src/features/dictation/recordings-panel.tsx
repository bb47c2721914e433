import { FALLBACK_ERROR_MESSAGES, type TRecording } from '@ris/domain';
import type { Editor, JSONContent } from '@tiptap/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { format } from 'date-fns';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { realtime } from '../realtime/realtime.ts';
import { dictationApi, dictationKeys } from './dictation-api.ts';
import { spacedText } from './editor/apply-segments.ts';
import { blockText } from './editor/report-navigation.ts';

/** The transcriptionist's keys while a recording is open (the editor uses none of them). */
export const PLAYER_KEYS = { rewind: 'F7', playPause: 'F8', forward: 'F9' } as const;
const SKIP_SECONDS = 3;

const STATUS_LABELS: Record<TRecording['status'], string> = {
  PENDING: 'Transcribing…',
  TRANSCRIBED: 'Transcribed',
  FAILED: 'Failed',
};

/**
 * A transcript as report content: one line goes on at the caret (spaced after the text before it),
 * several lines become paragraphs.
 */
export function transcriptContent(transcript: string, textBefore: string): JSONContent[] {
  const lines = transcript.split(/\r?\n/).map((line) => line.trim());
  const nonEmpty = lines.filter((line) => line !== '');
  if (nonEmpty.length <= 1) {
    return nonEmpty.map((line) => ({ type: 'text', text: spacedText(textBefore, line) }));
  }
  return lines.map((line) => ({ type: 'paragraph', content: line ? [{ type: 'text', text: line }] : [] }));
}

function duration(seconds: number): string {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** The recording's audio as an object URL (the API needs the bearer token), revoked when done. */
function useAudioUrl(id: string | null): { url: string | null; error: string | null } {
  const [state, setState] = useState<{ id: string; url: string | null; error: string | null } | null>(null);
  useEffect(() => {
    if (!id) return;
    const controller = new AbortController();
    let url: string | null = null;
    dictationApi.audio(id, controller.signal).then(
      (blob) => {
        url = URL.createObjectURL(blob);
        setState({ id, url, error: null });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) {
          setState({ id, url: null, error: errorMessage(error, 'The recording could not be loaded.') });
        }
      },
    );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [id]);
  return state && state.id === id ? state : { url: null, error: null };
}

/** Play/pause, rewind and forward keys for the open recording, wherever the focus is. */
function usePlayerKeys(audio: RefObject<HTMLAudioElement | null>, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      const player = audio.current;
      if (!player) return;
      if (event.key === PLAYER_KEYS.playPause) {
        if (player.paused) void player.play().catch(() => undefined);
        else player.pause();
      } else if (event.key === PLAYER_KEYS.rewind) {
        player.currentTime = Math.max(0, player.currentTime - SKIP_SECONDS);
      } else if (event.key === PLAYER_KEYS.forward) {
        player.currentTime = Math.min(player.duration || Infinity, player.currentTime + SKIP_SECONDS);
      } else {
        return;
      }
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [audio, enabled]);
}

export interface RecordingsPanelProps {
  editor: Editor;
  editable: boolean;
  reportId: string;
}

/**
 * The report's recorded dictations: upload a recording, listen to it while correcting (F7 back 3 s,
 * F8 play/pause, F9 forward 3 s), insert its transcript at the caret (the server already did when
 * the report was open in an editor at the end of the transcription).
 */
export function RecordingsPanel({ editor, editable, reportId }: RecordingsPanelProps) {
  const queryClient = useQueryClient();
  const recordings = useQuery({
    queryKey: dictationKeys.recordings(reportId),
    queryFn: ({ signal }) => dictationApi.recordings(reportId, signal),
  });
  // Uploads and finished transcriptions (by anyone) arrive through the realtime connection.
  useEffect(
    () =>
      realtime.subscribe((message) => {
        if (message.type !== 'dictation-recordings-changed') return;
        const data = message.data as { report_id?: unknown } | null;
        if (data?.report_id === reportId) {
          void queryClient.invalidateQueries({ queryKey: dictationKeys.recordings(reportId) });
        }
      }),
    [queryClient, reportId],
  );
  const [selected, setSelected] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);
  const { url, error: audioError } = useAudioUrl(selected);
  usePlayerKeys(audio, selected !== null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: dictationKeys.recordings(reportId) });
  const upload = useMutation({
    mutationFn: (file: File) => dictationApi.upload(reportId, file),
    onSettled: refresh,
  });
  const insert = useMutation({
    mutationFn: async (recording: TRecording) => {
      const { $from } = editor.state.selection;
      const textBefore = $from.parent.isTextblock ? blockText($from.parent).slice(0, $from.parentOffset) : '';
      editor
        .chain()
        .focus()
        .insertContent(transcriptContent(recording.transcript ?? '', textBefore))
        .run();
      await dictationApi.markInserted(recording.id);
    },
    onSettled: refresh,
  });

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2">
      <p className="text-[12px] text-fg-subtle">
        Keys while a recording is open: {PLAYER_KEYS.rewind} back {SKIP_SECONDS} s, {PLAYER_KEYS.playPause}{' '}
        play/pause, {PLAYER_KEYS.forward} forward {SKIP_SECONDS} s.
      </p>
      <label className="flex flex-col gap-1 text-[12px] text-fg-muted">
        Upload a recording (WAV, WebM, Ogg)
        <input
          type="file"
          accept="audio/wav,audio/x-wav,audio/webm,audio/ogg,.wav,.webm,.ogg,.opus"
          disabled={!editable || upload.isPending}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) upload.mutate(file);
          }}
          className="text-[12px]"
        />
      </label>
      {upload.isPending ? (
        <p className="flex items-center gap-2 text-[12px] text-fg-muted">
          <Spinner /> Uploading…
        </p>
      ) : null}
      {upload.isError ? (
        <p role="alert" className="text-[12px] text-danger">
          {errorMessage(upload.error, 'The recording could not be uploaded.')}
        </p>
      ) : null}
      {insert.isError ? (
        <p role="alert" className="text-[12px] text-danger">
          {errorMessage(insert.error, FALLBACK_ERROR_MESSAGES.fetchReport)}
        </p>
      ) : null}
      {recordings.isPending ? (
        <p className="flex items-center gap-2 text-[12px] text-fg-muted">
          <Spinner /> Loading recordings…
        </p>
      ) : recordings.isError ? (
        <p className="text-[12px] text-danger">
          {errorMessage(recordings.error, FALLBACK_ERROR_MESSAGES.fetchReport)}
        </p>
      ) : recordings.data.length === 0 ? (
        <p className="text-[12px] text-fg-subtle">No recorded dictations for this report.</p>
      ) : (
        <ul aria-label="Recordings" className="flex min-h-0 flex-col gap-2 overflow-y-auto">
          {recordings.data.map((recording) => (
            <li
              key={recording.id}
              className={cn(
                'flex flex-col gap-1 rounded border px-2 py-1.5',
                selected === recording.id ? 'border-accent' : 'border-line',
              )}
            >
              <div className="flex items-baseline justify-between gap-2 text-[12px]">
                <span className="truncate text-fg">{recording.by_user_name}</span>
                <span className="shrink-0 text-fg-subtle">
                  {format(new Date(recording.created_at), 'd MMM HH:mm')} ·{' '}
                  {duration(recording.duration_seconds)}
                </span>
              </div>
              <span
                className={cn('text-[11px]', recording.status === 'FAILED' ? 'text-danger' : 'text-fg-muted')}
              >
                {STATUS_LABELS[recording.status]}
                {recording.inserted ? ' · inserted' : ''}
                {recording.error ? ` · ${recording.error}` : ''}
              </span>
              {recording.transcript ? (
                <p className="line-clamp-4 text-[12px] text-fg-muted">{recording.transcript}</p>
              ) : null}
              <div className="flex gap-1.5">
                <Button
                  size="sm"
                  variant="secondary"
                  aria-pressed={selected === recording.id}
                  onClick={() => setSelected(selected === recording.id ? null : recording.id)}
                >
                  {selected === recording.id ? 'Close' : 'Listen'}
                </Button>
                {recording.transcript ? (
                  // The server inserts a transcript itself into a report open in an editor; then the
                  // button offers it again (e.g. after the text was deleted by mistake).
                  <Button
                    size="sm"
                    variant={recording.inserted ? 'secondary' : 'primary'}
                    disabled={!editable || insert.isPending}
                    onClick={() => insert.mutate(recording)}
                    aria-label={`${recording.inserted ? 'Insert again' : 'Insert'} the transcript of ${recording.by_user_name}'s recording`}
                  >
                    {recording.inserted ? 'Insert again' : 'Insert'}
                  </Button>
                ) : null}
              </div>
              {selected === recording.id ? (
                url ? (
                  <audio
                    ref={audio}
                    controls
                    src={url}
                    className="h-8 w-full"
                    aria-label="Recorded dictation"
                  />
                ) : audioError ? (
                  <p className="text-[12px] text-danger">{audioError}</p>
                ) : (
                  <p className="flex items-center gap-2 text-[12px] text-fg-muted">
                    <Spinner /> Loading the audio…
                  </p>
                )
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
