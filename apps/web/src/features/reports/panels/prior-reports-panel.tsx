import { label, type TReportSearchHit, type TWorklistItem } from '@ris/domain';
import { Download, History } from 'lucide-react';
import { useId } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { buildPriorsParams } from '../../report-finder/report-finder-query.ts';
import { HitDate, useStoredPdfDownload } from '../../report-finder/report-finder-results.tsx';
import { ReportSnippet } from '../../report-finder/report-snippet.tsx';
import { usePagedReportSearch } from '../../report-finder/use-report-search.ts';
import { useOpenItem } from '../../tabs/open-tabs-bar.tsx';
import { PaginationBar } from '../../worklist/pagination-bar.tsx';

/** Priors listed at a time (newest first). */
export const PRIORS_PAGE_SIZE = 5;

type TStudyOfPriors = Pick<TWorklistItem, 'id' | 'patient_fk'>;

function PriorItem({
  hit,
  onOpen,
  pdf,
}: {
  hit: TReportSearchHit;
  onOpen: () => void;
  pdf: ReturnType<typeof useStoredPdfDownload>;
}) {
  return (
    <li
      data-report-id={hit.report_id}
      className="flex items-start gap-3 border-b border-line py-2 last:border-b-0"
    >
      <div className="flex w-32 shrink-0 flex-col text-[12px] text-fg-muted">
        <HitDate hit={hit} />
        <span className="text-[11px] text-fg-subtle">Report {label(hit.report_status)}</span>
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-0.5 text-[12.5px]">
        <button
          type="button"
          onClick={onOpen}
          className="truncate text-left font-medium text-fg hover:text-accent hover:underline focus-visible:underline"
        >
          {[hit.modality, hit.study_description].filter(Boolean).join(' · ') || hit.accession_number}
        </button>
        <span className="truncate text-[11px] text-fg-subtle">
          {[hit.facility_name, hit.radiologist?.display_name, hit.accession_number]
            .filter(Boolean)
            .join(' · ')}
        </span>
        <ReportSnippet parts={hit.snippet} />
      </div>
      {hit.has_pdf ? (
        <Button
          variant="ghost"
          size="icon"
          className="size-7"
          title="Download PDF"
          aria-label={`Download PDF of the prior report ${hit.accession_number}`}
          disabled={pdf.busyId === hit.report_id}
          onClick={() => void pdf.download(hit)}
        >
          <Download aria-hidden="true" className="size-4" />
        </Button>
      ) : null}
    </li>
  );
}

/**
 * The patient's other reports beside this study, newest first (GET /report/search with patient_id
 * and exclude_study_id); each opens in its own tab.
 */
export function PriorReportsPanel({ study }: { study: TStudyOfPriors }) {
  const titleId = useId();
  const openItem = useOpenItem();
  const pdf = useStoredPdfDownload();
  const priors = usePagedReportSearch(
    buildPriorsParams({ patientId: study.patient_fk, studyId: study.id }),
    PRIORS_PAGE_SIZE,
    true,
  );
  const items = priors.page.items;

  return (
    <section aria-labelledby={titleId} className="rounded-lg border border-line bg-surface px-5 py-3">
      <h2
        id={titleId}
        className="flex items-center gap-1.5 text-[11px] font-medium tracking-wide text-fg-subtle uppercase"
      >
        <History aria-hidden="true" className="size-3.5" />
        Prior reports
        {priors.page.total > 0 ? ` (${priors.page.total}${priors.page.total_capped ? '+' : ''})` : ''}
      </h2>
      {priors.isLoading ? (
        <p role="status" className="mt-1.5 flex items-center gap-2 text-[12px] text-fg-muted">
          <Spinner /> Looking for prior reports…
        </p>
      ) : priors.error ? (
        <p role="alert" className="mt-1.5 text-[12px] text-danger">
          {priors.error}
        </p>
      ) : items.length === 0 ? (
        <p className="mt-1.5 text-[12px] text-fg-subtle">No prior reports of this patient.</p>
      ) : (
        <>
          <ul aria-label="Prior reports" className="mt-1">
            {items.map((hit) => (
              <PriorItem
                key={hit.report_id}
                hit={hit}
                pdf={pdf}
                onOpen={() => openItem({ id: hit.study_id, patient_name: hit.patient_name })}
              />
            ))}
          </ul>
          {priors.page.total > PRIORS_PAGE_SIZE ? (
            <div className="mt-2">
              <PaginationBar
                label="Prior reports"
                page={priors.page}
                pageSize={PRIORS_PAGE_SIZE}
                onOffset={priors.setOffset}
              />
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
