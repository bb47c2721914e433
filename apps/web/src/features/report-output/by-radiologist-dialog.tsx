import { MAX_SIGNING_RADIOLOGISTS, type TReport, type TWorklistItem } from '@ris/domain';
import { useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { worklistApi } from '../worklist/worklist-api.ts';
import { reportOutputApi, type TReportFormat } from './report-output-api.ts';
import type { TDownloadKind } from './use-report-download.ts';
import type { TFileResponse } from './blob-request.ts';

interface TSigner {
  id: string;
  name: string;
  /** Wrote or signed this report. */
  author: boolean;
}

/** The report's radiologist authors first, then the facility's other active radiologists. */
export function signerOptions(report: TReport, active: readonly { id: string; name: string }[]): TSigner[] {
  const seen = new Set<string>();
  const options: TSigner[] = [];
  for (const author of report.authors) {
    if (author.role !== 'RADIOLOGIST' && !author.signed) continue;
    if (seen.has(author.user_id)) continue;
    seen.add(author.user_id);
    options.push({ id: author.user_id, name: author.display_name, author: true });
  }
  for (const radiologist of active) {
    if (seen.has(radiologist.id)) continue;
    seen.add(radiologist.id);
    options.push({ id: radiologist.id, name: radiologist.name, author: false });
  }
  return options;
}

export interface ByRadiologistDialogProps {
  study: TWorklistItem;
  report: TReport;
  letterheadByDefault: boolean;
  busy: boolean;
  onDownload: (kind: TDownloadKind, fetchFile: () => Promise<TFileResponse>) => Promise<boolean>;
  onClose: () => void;
}

/**
 * "By radiologist…": the report signed by the radiologists picked here, in the order picked
 * (POST /worklist/report/by-rad/pdf or /docx with rad_user_ids). Opened only when the report's
 * abilities.choose_signers allows it (admins, facility admins, editors: all may list radiologists).
 */
export function ByRadiologistDialog({
  study,
  report,
  letterheadByDefault,
  busy,
  onDownload,
  onClose,
}: ByRadiologistDialogProps) {
  const id = useId();
  const [selected, setSelected] = useState<string[]>(() =>
    report.authors.filter((author) => author.signed).map((author) => author.user_id),
  );
  const [format, setFormat] = useState<TReportFormat>('pdf');
  const [letterhead, setLetterhead] = useState(letterheadByDefault);
  const active = useQuery({
    queryKey: ['radiologists', 'active', study.facility_fk],
    queryFn: ({ signal }) => worklistApi.radiologists('', [study.facility_fk], signal),
  });
  const options = signerOptions(report, active.data ?? []);
  const full = selected.length >= MAX_SIGNING_RADIOLOGISTS;

  const toggle = (signer: string) =>
    setSelected((current) =>
      current.includes(signer) ? current.filter((other) => other !== signer) : [...current, signer],
    );

  const submit = async () => {
    const body = { worklist_id: study.id, is_letterhead_enabled: letterhead, rad_user_ids: selected };
    const done = await onDownload(format, () => reportOutputApi.byRadiologists(format, body));
    if (done) onClose();
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="Download signed by radiologists"
      description={`Signature blocks in the order you pick them (at most ${MAX_SIGNING_RADIOLOGISTS}).`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={busy || selected.length === 0} onClick={() => void submit()}>
            <Download aria-hidden="true" className="size-3.5" /> Download {format.toUpperCase()}
          </Button>
        </>
      }
    >
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1.5 text-[13px] font-medium text-fg">Radiologists</legend>
        {active.isPending ? (
          <p className="flex items-center gap-2 text-[12px] text-fg-muted">
            <Spinner /> Loading radiologists…
          </p>
        ) : null}
        {active.isError ? (
          <p className="text-[12px] text-danger">
            {errorMessage(active.error, 'Failed to load radiologists')}
          </p>
        ) : null}
        {options.length === 0 && !active.isPending ? (
          <p className="text-[12px] text-fg-subtle">No radiologist to choose from.</p>
        ) : null}
        <ul className="max-h-64 overflow-y-auto">
          {options.map((signer) => {
            const position = selected.indexOf(signer.id);
            const checked = position >= 0;
            const inputId = `${id}-${signer.id}`;
            return (
              <li key={signer.id}>
                <label
                  htmlFor={inputId}
                  className={cn(
                    'flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-[13px] text-fg hover:bg-surface-hover',
                    !checked && full && 'cursor-not-allowed opacity-50',
                  )}
                >
                  <input
                    id={inputId}
                    type="checkbox"
                    checked={checked}
                    disabled={!checked && full}
                    onChange={() => toggle(signer.id)}
                    className="size-3.5 accent-(--color-accent)"
                  />
                  <span className="flex-1 truncate">{signer.name}</span>
                  {signer.author ? <span className="text-[11px] text-fg-subtle">author</span> : null}
                  <span
                    aria-label={checked ? `Signature ${position + 1}` : undefined}
                    className="w-5 text-right text-[11px] text-accent tabular-nums"
                  >
                    {checked ? position + 1 : ''}
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <div className="mt-4 flex flex-wrap items-center gap-5 text-[13px] text-fg">
        <fieldset className="flex items-center gap-3">
          <legend className="sr-only">Format</legend>
          {(['pdf', 'docx'] as const).map((value) => (
            <label key={value} className="flex items-center gap-1.5">
              <input
                type="radio"
                name={`${id}-format`}
                value={value}
                checked={format === value}
                onChange={() => setFormat(value)}
                className="size-3.5 accent-(--color-accent)"
              />
              {value.toUpperCase()}
            </label>
          ))}
        </fieldset>
        <label className="flex items-center gap-1.5">
          <input
            type="checkbox"
            checked={letterhead}
            onChange={(event) => setLetterhead(event.target.checked)}
            className="size-3.5 accent-(--color-accent)"
          />
          With letterhead
        </label>
      </div>
    </Dialog>
  );
}
