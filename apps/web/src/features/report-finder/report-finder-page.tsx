import { FileSearch, RefreshCw, SearchX, TriangleAlert } from 'lucide-react';
import { Page } from '../../components/layout/page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useSettings } from '../../stores/settings-store.ts';
import { useOpenItem } from '../tabs/open-tabs-bar.tsx';
import { PaginationBar } from '../worklist/pagination-bar.tsx';
import { ReportFinderFilters } from './report-finder-filters.tsx';
import { ReportFinderResults } from './report-finder-results.tsx';
import { useReportSearch } from './use-report-search.ts';

/** Page sizes offered under the results; the session's own size is kept even when not listed. */
export const FINDER_PAGE_SIZES = [10, 20, 50, 100] as const;

/**
 * /report-finder: any report by its words (web-search syntax) and the worklist's filters, ranked,
 * with where the words matched; a result opens in the reporting screen as a tab.
 */
export function ReportFinderPage() {
  const filters = useSettings((state) => state.reportFinderFilters);
  const pageSize = useSettings((state) => state.pageSizes.reportFinder);
  const { setReportFinderFilters, resetReportFinderFilters, setPageSize } = useSettings((state) => state);
  const openItem = useOpenItem();
  const data = useReportSearch(filters, pageSize);
  const searched = filters.q.trim() !== '' || filters.search.trim() !== '';

  return (
    <Page
      wide
      title="Report finder"
      actions={
        <Button variant="ghost" size="sm" onClick={data.refetch} aria-label="Search again">
          <RefreshCw aria-hidden="true" className={data.isFetching ? 'size-3.5 animate-spin' : 'size-3.5'} />
        </Button>
      }
    >
      <ReportFinderFilters
        filters={filters}
        onChange={setReportFinderFilters}
        onReset={resetReportFinderFilters}
      />
      {data.isLoading ? (
        <p role="status" className="flex items-center justify-center gap-2 py-10 text-[13px] text-fg-muted">
          <Spinner /> Searching reports…
        </p>
      ) : data.error ? (
        <EmptyState
          icon={TriangleAlert}
          title="The reports could not be searched."
          action={
            <Button variant="secondary" size="sm" onClick={data.refetch}>
              Try again
            </Button>
          }
        >
          <span role="alert">{data.error}</span>
        </EmptyState>
      ) : data.page.items.length === 0 ? (
        <EmptyState
          icon={searched ? SearchX : FileSearch}
          title={searched ? 'No reports match this search.' : 'No reports match these filters.'}
        >
          {searched
            ? 'Try fewer words, another spelling, or a wider date range.'
            : 'Widen the date range or clear a filter.'}
        </EmptyState>
      ) : (
        <ReportFinderResults
          hits={data.page.items}
          busy={data.isFetching}
          onOpen={(hit) => openItem({ id: hit.study_id, patient_name: hit.patient_name })}
        />
      )}
      <PaginationBar
        label="Report finder"
        page={data.page}
        pageSize={pageSize}
        sizes={FINDER_PAGE_SIZES}
        onPageSize={(size) => setPageSize('reportFinder', size)}
        onOffset={data.setOffset}
      />
    </Page>
  );
}
