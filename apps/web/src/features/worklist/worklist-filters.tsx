import {
  DATE_RANGE_LABELS,
  DATE_RANGE_TYPES,
  MODALITIES,
  PRIORITY_TAGS,
  STUDY_STATUSES,
  label,
  type TDateRangeType,
  type TModality,
  type TPriorityTag,
  type TStudyStatus,
  priorityTagLabel,
} from '@ris/domain';
import { useQuery } from '@tanstack/react-query';
import { RotateCcw, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { MultiSelect } from '../../components/ui/multi-select.tsx';
import { Select } from '../../components/ui/select.tsx';
import { inputClassName } from '../../components/ui/text-field.tsx';
import { cn } from '../../components/ui/cn.ts';
import { useAuth } from '../../stores/auth-store.ts';
import type { TWorklistFilters } from '../../stores/settings-store.ts';
import { worklistApi, worklistKeys } from './worklist-api.ts';

export const SEARCH_DEBOUNCE_MS = 300;

export interface WorklistFiltersProps {
  filters: TWorklistFilters;
  onChange: (patch: Partial<TWorklistFilters>) => void;
  onReset: () => void;
  /** The orders screen lists one status only and hides the status and radiologist filters. */
  compact?: boolean;
}

const LISTED_STATUSES = STUDY_STATUSES.filter((status) => status !== 'DELETED');

export interface SearchInputProps {
  value: string;
  onCommit: (value: string) => void;
  /** Accessible name; the worklist's patient/study search by default. */
  label?: string;
  placeholder?: string;
  className?: string;
  /** Id of a hint that describes the field. */
  describedBy?: string;
}

/** Search field that commits its text after a pause in typing. */
export function SearchInput({
  value,
  onCommit,
  label = 'Search patient name, patient ID, accession or study',
  placeholder = 'Search patient, ID, accession, study',
  className = 'w-64',
  describedBy,
}: SearchInputProps) {
  const [text, setText] = useState(value);
  const [committed, setCommitted] = useState(value);
  if (value !== committed) {
    // The stored search changed elsewhere (reset): show it.
    setCommitted(value);
    setText(value);
  }
  useEffect(() => {
    if (text === committed) return;
    const timer = setTimeout(() => {
      setCommitted(text);
      onCommit(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, committed, onCommit]);
  return (
    <div className={cn('relative', className)}>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-2.5 size-3.5 -translate-y-1/2 text-fg-subtle"
      />
      <input
        type="search"
        aria-label={label}
        aria-describedby={describedBy}
        placeholder={placeholder}
        value={text}
        onChange={(event) => setText(event.target.value)}
        className={cn(inputClassName, 'h-8 pl-8 text-[13px]')}
      />
    </div>
  );
}

export function RadiologistFilter({
  selected,
  facilityIds,
  onChange,
}: {
  selected: string[];
  facilityIds: string[];
  onChange: (ids: string[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const radiologists = useQuery({
    queryKey: worklistKeys.radiologists('', facilityIds),
    queryFn: ({ signal }) => worklistApi.radiologists('', facilityIds, signal),
    enabled: open || selected.length > 0,
    staleTime: 5 * 60_000,
  });
  return (
    <MultiSelect
      label="Radiologist"
      options={(radiologists.data ?? []).map((option) => ({ value: option.id, label: option.name }))}
      selected={selected}
      onChange={onChange}
      onOpenChange={setOpen}
      emptyText={
        radiologists.isPending
          ? 'Loading…'
          : radiologists.isError
            ? 'Could not load radiologists'
            : 'No radiologists'
      }
    />
  );
}

export interface DateRangeValue {
  date_range_type: TDateRangeType;
  start_date: string | null;
  end_date: string | null;
}

// A range never ends before it starts (the API refuses it): a date typed past the other one moves
// that one with it.
const startingOn = (start: string | null, end: string | null): Partial<DateRangeValue> =>
  start !== null && end !== null && start > end
    ? { start_date: start, end_date: start }
    : { start_date: start };
const endingOn = (end: string | null, start: string | null): Partial<DateRangeValue> =>
  end !== null && start !== null && end < start ? { start_date: end, end_date: end } : { end_date: end };

/** A date preset, or Custom with its two (each optional) dates. */
export function DateRangeFilter({
  value: filters,
  onChange,
  customLabel = DATE_RANGE_LABELS.CUSTOM,
}: {
  value: DateRangeValue;
  onChange: (patch: Partial<DateRangeValue>) => void;
  /** The finder calls Custom 'Any date or custom': open dates there mean every date. */
  customLabel?: string;
}) {
  const custom = filters.date_range_type === 'CUSTOM';
  return (
    <>
      <Select
        aria-label="Date range"
        value={filters.date_range_type}
        onChange={(event) => onChange({ date_range_type: event.target.value as TDateRangeType })}
      >
        {DATE_RANGE_TYPES.map((type) => (
          <option key={type} value={type}>
            {type === 'CUSTOM' ? customLabel : DATE_RANGE_LABELS[type]}
          </option>
        ))}
      </Select>
      {custom ? (
        <>
          <input
            type="date"
            aria-label="From date"
            value={filters.start_date ?? ''}
            max={filters.end_date ?? undefined}
            onChange={(event) => onChange(startingOn(event.target.value || null, filters.end_date))}
            className={cn(inputClassName, 'h-8 w-36 text-[13px]')}
          />
          <span aria-hidden="true" className="text-fg-subtle">
            –
          </span>
          <input
            type="date"
            aria-label="To date"
            value={filters.end_date ?? ''}
            min={filters.start_date ?? undefined}
            onChange={(event) => onChange(endingOn(event.target.value || null, filters.start_date))}
            className={cn(inputClassName, 'h-8 w-36 text-[13px]')}
          />
        </>
      ) : null}
    </>
  );
}

/**
 * The worklist's filter bar: search, date preset or custom dates, facility, status, modality, priority,
 * radiologist.
 */
export function WorklistFilters({ filters, onChange, onReset, compact = false }: WorklistFiltersProps) {
  const facilities = useAuth((state) => state.facilities);
  return (
    <div role="search" aria-label="Worklist filters" className="flex flex-wrap items-center gap-2">
      <SearchInput value={filters.search} onCommit={(search) => onChange({ search })} />
      <DateRangeFilter value={filters} onChange={onChange} />
      <MultiSelect
        label="Facility"
        options={facilities.map((facility) => ({ value: facility.id, label: facility.name }))}
        selected={filters.facility_ids}
        onChange={(facility_ids) => onChange({ facility_ids })}
      />
      {compact ? null : (
        <MultiSelect
          label="Status"
          options={LISTED_STATUSES.map((status) => ({ value: status, label: label(status) }))}
          selected={filters.statuses}
          onChange={(statuses) => onChange({ statuses: statuses as TStudyStatus[] })}
        />
      )}
      <MultiSelect
        label="Modality"
        options={MODALITIES.map((modality) => ({ value: modality, label: modality }))}
        selected={filters.modalities}
        onChange={(modalities) => onChange({ modalities: modalities as TModality[] })}
      />
      <MultiSelect
        label="Priority"
        options={PRIORITY_TAGS.map((tag) => ({ value: tag, label: priorityTagLabel(tag) }))}
        selected={filters.priority_tags}
        onChange={(priority_tags) => onChange({ priority_tags: priority_tags as TPriorityTag[] })}
      />
      {compact ? null : (
        <RadiologistFilter
          selected={filters.by_user_ids}
          facilityIds={filters.facility_ids}
          onChange={(by_user_ids) => onChange({ by_user_ids })}
        />
      )}
      <Button variant="ghost" size="sm" onClick={onReset}>
        <RotateCcw aria-hidden="true" className="size-3.5" />
        Reset
      </Button>
    </div>
  );
}
