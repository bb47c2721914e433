import { label, type TReportSearchHit } from '@ris/domain';
import { Download, FilePenLine } from 'lucide-react';
import { useState } from 'react';
import { formatShortDateTime } from '../../components/format-date-time.ts';
import { Button } from '../../components/ui/button.tsx';
import { downloadReportFile } from '../report-output/use-report-download.ts';
import { reportOutputApi } from '../report-output/report-output-api.ts';
import { Muted, PriorityBadge, StatusText } from '../worklist/worklist-cells.tsx';
import { ReportSnippet } from './report-snippet.tsx';

export interface ReportFinderResultsProps {
  hits: readonly TReportSearchHit[];
  onOpen: (hit: TReportSearchHit) => void;
  busy: boolean;
}

/** The study's date (when it was taken, else when it arrived), or a dash. */
export function HitDate({ hit }: { hit: Pick<TReportSearchHit, 'study_datetime' | 'created_at'> }) {
  const when = new Date(hit.study_datetime ?? hit.created_at);
  if (Number.isNaN(when.getTime())) return <span className="text-fg-subtle">—</span>;
  return (
    <time dateTime={when.toISOString()} className="tabular-nums">
      {formatShortDateTime(when)}
    </time>
  );
}

/** Downloads the report's stored PDF (the one a final report was signed as), with the usual toasts. */
export function useStoredPdfDownload() {
  const [busyId, setBusyId] = useState<string | null>(null);
  const download = async (hit: Pick<TReportSearchHit, 'report_id' | 'study_id' | 'patient_name'>) => {
    setBusyId(hit.report_id);
    try {
      await downloadReportFile('stored-pdf', hit.patient_name, () =>
        reportOutputApi.currentStoredPdf(hit.study_id),
      );
    } finally {
      setBusyId(null);
    }
  };
  return { busyId, download };
}

const HEAD = 'h-9 px-2 text-left text-xs font-medium whitespace-nowrap text-fg-muted';
const CELL = 'px-2 py-2 align-top text-fg';

/**
 * The matching reports: patient, study, date, radiologist, status, where the words matched; each
 * opens in the reporting screen (a tab) and, when it has one, downloads its PDF.
 */
export function ReportFinderResults({ hits, onOpen, busy }: ReportFinderResultsProps) {
  const pdf = useStoredPdfDownload();
  return (
    <div className="overflow-x-auto rounded-lg border border-line bg-surface">
      <table className="w-full min-w-[1000px] table-fixed border-collapse text-[12.5px]" aria-busy={busy}>
        <caption className="sr-only">Reports found</caption>
        <colgroup>
          <col style={{ width: 170 }} />
          <col style={{ width: 190 }} />
          <col style={{ width: 116 }} />
          <col style={{ width: 130 }} />
          <col style={{ width: 96 }} />
          <col />
          <col style={{ width: 84 }} />
        </colgroup>
        <thead className="bg-surface-raised">
          <tr className="border-b border-line">
            <th scope="col" className={HEAD}>
              Patient
            </th>
            <th scope="col" className={HEAD}>
              Study
            </th>
            <th scope="col" className={HEAD}>
              Date
            </th>
            <th scope="col" className={HEAD}>
              Radiologist
            </th>
            <th scope="col" className={HEAD}>
              Status
            </th>
            <th scope="col" className={HEAD}>
              Matched text
            </th>
            <th scope="col" className={HEAD}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {hits.map((hit) => (
            <tr
              key={hit.report_id}
              data-report-id={hit.report_id}
              className="border-b border-line last:border-b-0 hover:bg-surface-hover/60"
            >
              <td className={CELL}>
                <span className="flex min-w-0 flex-col items-start gap-0.5">
                  <button
                    type="button"
                    onClick={() => onOpen(hit)}
                    title={hit.patient_name}
                    className="max-w-full truncate text-left leading-tight font-medium text-fg hover:text-accent hover:underline focus-visible:underline"
                  >
                    {hit.patient_name}
                  </button>
                  <span className="max-w-full truncate font-mono text-[11px] text-fg-muted">
                    {hit.patient_identifier}
                  </span>
                  {hit.priority_tag ? <PriorityBadge tag={hit.priority_tag} /> : null}
                </span>
              </td>
              <td className={CELL}>
                <span className="flex min-w-0 flex-col leading-tight">
                  <span className="truncate" title={hit.study_description ?? undefined}>
                    {[hit.modality, hit.study_description].filter(Boolean).join(' · ') || (
                      <Muted>{null}</Muted>
                    )}
                  </span>
                  <span className="truncate text-[11px] text-fg-subtle" title={hit.facility_name}>
                    {hit.accession_number} · {hit.facility_name}
                  </span>
                </span>
              </td>
              <td className={CELL}>
                <HitDate hit={hit} />
              </td>
              <td className={CELL}>
                <span className="line-clamp-2 break-words whitespace-normal">
                  <Muted>{hit.radiologist?.display_name}</Muted>
                </span>
              </td>
              <td className={CELL}>
                <span className="flex flex-col gap-0.5">
                  <StatusText status={hit.study_status} />
                  <span className="text-[11px] text-fg-subtle">Report {label(hit.report_status)}</span>
                </span>
              </td>
              <td className={CELL}>
                <ReportSnippet parts={hit.snippet} />
              </td>
              <td className={`${CELL} text-right`}>
                <span className="flex items-center justify-end gap-0.5">
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-7"
                    title="Open report"
                    aria-label={`Open report of ${hit.patient_name}`}
                    onClick={() => onOpen(hit)}
                  >
                    <FilePenLine aria-hidden="true" className="size-4" />
                  </Button>
                  {hit.has_pdf ? (
                    <Button
                      variant="ghost"
                      size="icon"
                      className="size-7"
                      title="Download PDF"
                      aria-label={`Download PDF of ${hit.patient_name}`}
                      disabled={pdf.busyId === hit.report_id}
                      onClick={() => void pdf.download(hit)}
                    >
                      <Download aria-hidden="true" className="size-4" />
                    </Button>
                  ) : null}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
