import {
  MODALITIES,
  PRIORITY_TAGS,
  REPORT_QUERY_MAX_LENGTH,
  REPORT_STATUSES,
  label,
  priorityTagLabel,
  type TModality,
  type TPriorityTag,
  type TReportFinderSort,
  type TReportStatus,
} from '@ris/domain';
import { useQuery } from '@tanstack/react-query';
import { RotateCcw } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { MultiSelect } from '../../components/ui/multi-select.tsx';
import { Select } from '../../components/ui/select.tsx';
import { inputClassName } from '../../components/ui/text-field.tsx';
import { cn } from '../../components/ui/cn.ts';
import { useAuth } from '../../stores/auth-store.ts';
import type { TReportFinderFilters } from '../../stores/report-finder-filters.ts';
import { referringPhysiciansApi } from '../referring-physicians/referring-physicians-api.ts';
import { worklistApi, worklistKeys } from '../worklist/worklist-api.ts';
import { DateRangeFilter, RadiologistFilter, SearchInput } from '../worklist/worklist-filters.tsx';

export interface ReportFinderFiltersProps {
  filters: TReportFinderFilters;
  onChange: (patch: Partial<TReportFinderFilters>) => void;
  onReset: () => void;
}

const SORT_LABELS: Record<TReportFinderSort, string> = { relevance: 'Most relevant', date: 'Newest first' };

function TagFilter({ selected, onChange }: { selected: string[]; onChange: (ids: string[]) => void }) {
  const [open, setOpen] = useState(false);
  const tags = useQuery({
    queryKey: worklistKeys.tags(),
    queryFn: ({ signal }) => worklistApi.tags(signal),
    enabled: open || selected.length > 0,
    staleTime: 5 * 60_000,
  });
  return (
    <MultiSelect
      label="Tags"
      options={(tags.data ?? []).map((tag) => ({ value: tag.id, label: tag.name }))}
      selected={selected}
      onChange={onChange}
      onOpenChange={setOpen}
      emptyText={tags.isPending ? 'Loading…' : tags.isError ? 'Could not load tags' : 'No tags'}
    />
  );
}

function ReferringPhysicianFilter({
  selected,
  facilityIds,
  onChange,
}: {
  selected: string[];
  facilityIds: string[];
  onChange: (ids: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const physicians = useQuery({
    queryKey: ['referring-physicians', 'finder-filter', search, facilityIds],
    queryFn: ({ signal }) =>
      referringPhysiciansApi.list({ search, facilityIds, status: 'ALL', offset: 0, limit: 100 }, signal),
    enabled: open || selected.length > 0,
    staleTime: 5 * 60_000,
  });
  return (
    <MultiSelect
      label="Referring physician"
      options={(physicians.data?.items ?? []).map((physician) => ({
        value: physician.id,
        label: physician.name,
      }))}
      selected={selected}
      onChange={onChange}
      onOpenChange={setOpen}
      header={
        <input
          type="search"
          aria-label="Find a referring physician"
          placeholder="Find by name"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className={cn(inputClassName, 'mb-1 h-7 text-[12px]')}
        />
      }
      emptyText={
        physicians.isPending
          ? 'Loading…'
          : physicians.isError
            ? 'Could not load referring physicians'
            : 'No referring physicians'
      }
    />
  );
}

/**
 * The finder's search and filters: the words of the report (web-search syntax), the worklist's
 * patient/study search, dates, facility, modality, priority, signing radiologist, report status,
 * tags and referring physician; the order of the results.
 */
export function ReportFinderFilters({ filters, onChange, onReset }: ReportFinderFiltersProps) {
  const facilities = useAuth((state) => state.facilities);
  const role = useAuth((state) => state.user?.role ?? null);
  const staff = role !== null && role !== 'REFERRING_PHYSICIAN';
  const hintId = useId();
  return (
    <div role="search" aria-label="Report finder" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-start gap-2">
        <div className="flex min-w-80 flex-1 flex-col gap-1">
          <SearchInput
            value={filters.q}
            onCommit={(q) => onChange({ q: q.slice(0, REPORT_QUERY_MAX_LENGTH) })}
            label="Search report text"
            placeholder='Words of the report, e.g. "pleural effusion" -chronic'
            className="w-full"
            describedBy={hintId}
          />
          <p id={hintId} className="text-[11.5px] text-fg-subtle">
            All words must match (endings and accents ignored); <code>"exact phrase"</code>,{' '}
            <code>-word</code> to leave out, <code>OR</code> for either.
          </p>
        </div>
        <SearchInput value={filters.search} onCommit={(search) => onChange({ search })} />
        <label className="flex items-center gap-2 text-[13px] text-fg-muted">
          Sort
          <Select
            value={filters.sort_by}
            onChange={(event) => onChange({ sort_by: event.target.value as TReportFinderSort })}
          >
            {(Object.keys(SORT_LABELS) as TReportFinderSort[]).map((sort) => (
              <option key={sort} value={sort}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </Select>
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <DateRangeFilter value={filters} onChange={onChange} customLabel="Any date or custom" />
        <MultiSelect
          label="Facility"
          options={facilities.map((facility) => ({ value: facility.id, label: facility.name }))}
          selected={filters.facility_ids}
          onChange={(facility_ids) => onChange({ facility_ids })}
        />
        <MultiSelect
          label="Modality"
          options={MODALITIES.map((modality) => ({ value: modality, label: modality }))}
          selected={filters.modalities}
          onChange={(modalities) => onChange({ modalities: modalities as TModality[] })}
        />
        <MultiSelect
          label="Report status"
          options={REPORT_STATUSES.map((status) => ({ value: status, label: label(status) }))}
          selected={filters.report_statuses}
          onChange={(statuses) => onChange({ report_statuses: statuses as TReportStatus[] })}
        />
        <MultiSelect
          label="Priority"
          options={PRIORITY_TAGS.map((tag) => ({ value: tag, label: priorityTagLabel(tag) }))}
          selected={filters.priority_tags}
          onChange={(priority_tags) => onChange({ priority_tags: priority_tags as TPriorityTag[] })}
        />
        {staff ? (
          <>
            <RadiologistFilter
              selected={filters.radiologist_ids}
              facilityIds={filters.facility_ids}
              onChange={(radiologist_ids) => onChange({ radiologist_ids })}
            />
            <TagFilter selected={filters.tag_ids} onChange={(tag_ids) => onChange({ tag_ids })} />
            <ReferringPhysicianFilter
              selected={filters.referring_physician_ids}
              facilityIds={filters.facility_ids}
              onChange={(referring_physician_ids) => onChange({ referring_physician_ids })}
            />
          </>
        ) : null}
        <Button variant="ghost" size="sm" onClick={onReset}>
          <RotateCcw aria-hidden="true" className="size-3.5" />
          Reset
        </Button>
      </div>
    </div>
  );
}
