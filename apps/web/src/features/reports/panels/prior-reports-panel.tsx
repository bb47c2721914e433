import { MAX_PAGE_LIMIT, label, type TReportSearchHit, type TWorklistItem } from '@ris/domain';
import { useQuery } from '@tanstack/react-query';
import { Download, History } from 'lucide-react';
import { useId } from 'react';
import { errorMessage } from '../../../api/api-error.ts';
import type { QueryParams } from '../../../api/query-string.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { reportFinderApi, reportFinderKeys } from '../../report-finder/report-finder-api.ts';
import { buildPriorsParams } from '../../report-finder/report-finder-query.ts';
import { HitDate, useStoredPdfDownload } from '../../report-finder/report-finder-results.tsx';
import { ReportSnippet } from '../../report-finder/report-snippet.tsx';
import { SEARCH_FAILED, usePagedReportSearch } from '../../report-finder/use-report-search.ts';
import { useOpenItem } from '../../tabs/open-tabs-bar.tsx';
import { PaginationBar } from '../../worklist/pagination-bar.tsx';

/** Priors listed at a time (newest first). */
export const PRIORS_PAGE_SIZE = 5;

type TStudyOfPriors = Pick<TWorklistItem, 'id' | 'patient_id' | 'facility_fk'>;

/** The report search that finds the patient's record: their identifier at the study's facility. */
export function patientLookupParams(study: TStudyOfPriors): QueryParams {
  return {
    search: study.patient_id.trim(),
    facility_ids: [study.facility_fk],
    date_range_type: 'CUSTOM',
    sort_by: 'date',
    limit: MAX_PAGE_LIMIT,
    offset: 0,
  };
}

/**
 * The patient record (its id) of a study, from the reports found by its patient identifier at its
 * facility: this study's own report names it; else the reports of exactly that identifier there.
 * Null when none is found (no report of this patient yet) or the identifier is blank.
 */
export function patientIdOf(study: TStudyOfPriors, hits: readonly TReportSearchHit[]): string | null {
  const own = hits.find((hit) => hit.study_id === study.id);
  if (own) return own.patient_id;
  const identifier = study.patient_id.trim().toLowerCase();
  const same = new Set(
    hits
      .filter(
        (hit) =>
          hit.facility_id === study.facility_fk && hit.patient_identifier.trim().toLowerCase() === identifier,
      )
      .map((hit) => hit.patient_id),
  );
  return same.size === 1 ? ([...same][0] ?? null) : null;
}

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
  const hasIdentifier = study.patient_id.trim() !== '';
  const lookupParams = patientLookupParams(study);
  const lookup = useQuery({
    queryKey: reportFinderKeys.search(lookupParams),
    queryFn: ({ signal }) => reportFinderApi.search(lookupParams, signal),
    enabled: hasIdentifier,
    staleTime: 60_000,
  });
  const patientId = lookup.data ? patientIdOf(study, lookup.data.items) : null;
  const priors = usePagedReportSearch(
    buildPriorsParams({ patientId: patientId ?? '', studyId: study.id }),
    PRIORS_PAGE_SIZE,
    patientId !== null,
  );

  const loading = (hasIdentifier && lookup.isPending) || priors.isLoading;
  const error = lookup.isError ? errorMessage(lookup.error, SEARCH_FAILED) : priors.error;
  const items = patientId ? priors.page.items : [];

  return (
    <section aria-labelledby={titleId} className="rounded-lg border border-line bg-surface px-5 py-3">
      <h2
        id={titleId}
        className="flex items-center gap-1.5 text-[11px] font-medium tracking-wide text-fg-subtle uppercase"
      >
        <History aria-hidden="true" className="size-3.5" />
        Prior reports{patientId && priors.page.total > 0 ? ` (${priors.page.total})` : ''}
      </h2>
      {loading ? (
        <p role="status" className="mt-1.5 flex items-center gap-2 text-[12px] text-fg-muted">
          <Spinner /> Looking for prior reports…
        </p>
      ) : error ? (
        <p role="alert" className="mt-1.5 text-[12px] text-danger">
          {error}
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
