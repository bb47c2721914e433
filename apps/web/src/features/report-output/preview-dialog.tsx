import { FALLBACK_ERROR_MESSAGES } from '@ris/domain';
import { RefreshCw } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notify } from '../../stores/app-store.ts';
import { reportOutputApi } from './report-output-api.ts';

type TPreview = { state: 'loading' } | { state: 'ready'; url: string } | { state: 'error'; message: string };
/** A finished request's outcome, with the request it answers (letterhead and round). */
type TOutcome = { key: string } & Exclude<TPreview, { state: 'loading' }>;

export interface PreviewDialogProps {
  worklistId: string;
  patientName: string;
  /** The report HTML to render: the editor's content when the dialog opened. */
  html: string;
  /** Letterhead on at first (the facility's setting). */
  letterheadByDefault: boolean;
  onClose: () => void;
}

/**
 * The PDF of the report as it stands (POST /worklist/report/preview/pdf with the editor's HTML), shown
 * from an object URL in a frame; with or without the facility's letterhead. Every URL it makes is
 * revoked when the next one replaces it or the dialog closes.
 */
export function PreviewDialog({
  worklistId,
  patientName,
  html,
  letterheadByDefault,
  onClose,
}: PreviewDialogProps) {
  const letterheadId = useId();
  const [letterhead, setLetterhead] = useState(letterheadByDefault);
  const [round, setRound] = useState(0);
  const [outcome, setOutcome] = useState<TOutcome | null>(null);
  const key = `${String(letterhead)}:${round}`;
  // A result of an earlier request (before the toggle or Regenerate) is not this preview.
  const preview: TPreview = outcome?.key === key ? outcome : { state: 'loading' };

  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    reportOutputApi
      .previewPdf(
        { worklist_id: worklistId, html_content: html, is_letterhead_enabled: letterhead },
        controller.signal,
      )
      .then(({ blob }) => {
        url = URL.createObjectURL(
          blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' }),
        );
        setOutcome({ key, state: 'ready', url });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const message = errorMessage(error, FALLBACK_ERROR_MESSAGES.generateReportPdf);
        setOutcome({ key, state: 'error', message });
        notify('error', message);
      });
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [worklistId, html, letterhead, key]);

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Report preview"
      description={`${patientName} — the report as it stands now, as a PDF`}
      className="h-[92vh] max-h-[92vh] w-[min(94vw,62rem)]"
      footer={
        <div className="flex w-full items-center justify-between gap-3">
          <label htmlFor={letterheadId} className="flex items-center gap-2 text-[13px] text-fg">
            <input
              id={letterheadId}
              type="checkbox"
              checked={letterhead}
              onChange={(event) => setLetterhead(event.target.checked)}
              className="size-3.5 accent-(--color-accent)"
            />
            With letterhead
          </label>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              disabled={preview.state === 'loading'}
              onClick={() => setRound((value) => value + 1)}
            >
              <RefreshCw aria-hidden="true" className="size-3.5" /> Regenerate
            </Button>
            <Button onClick={onClose}>Close</Button>
          </div>
        </div>
      }
    >
      {preview.state === 'loading' ? (
        <p role="status" className="flex h-full items-center justify-center gap-2 text-[13px] text-fg-muted">
          <Spinner /> Generating the preview…
        </p>
      ) : preview.state === 'error' ? (
        <p role="alert" className="flex h-full items-center justify-center text-[13px] text-danger">
          {preview.message}
        </p>
      ) : (
        <iframe
          title="Report PDF preview"
          src={preview.url}
          className="h-full min-h-[60vh] w-full rounded border border-line bg-white"
        />
      )}
    </Dialog>
  );
}
