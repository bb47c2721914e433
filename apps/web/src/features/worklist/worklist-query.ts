import {
  isReporter,
  statusesOfGroup,
  type TStatusGroup,
  type TStudyStatus,
  type TWorklistSortField,
  WORKLIST_SORT_FIELDS,
} from '@ris/domain';
import type { QueryParams } from '../../api/query-string.ts';
import type { TWorklistFilters } from '../../stores/settings-store.ts';

export interface TWorklistQueryInput {
  filters: TWorklistFilters;
  group: TStatusGroup;
  /** IANA zone of the browser: the server resolves Today and Yesterday at its midnights. */
  timeZone: string;
  /** The signed-in user, so a reporter's own id is always in by_user_ids (spec §6). */
  user?: { id: string; role: string | null; userType?: string | null } | null;
}

/** The browser's IANA time zone, UTC when it cannot tell. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/**
 * Statuses to ask for: the tab's statuses, narrowed by the status filter when one is set. An empty
 * result means no status can match (e.g. tab Ordered with filter Final) and nothing is fetched.
 */
export function listStatuses(group: TStatusGroup, selected: readonly TStudyStatus[]): TStudyStatus[] {
  const inGroup = statusesOfGroup(group);
  if (selected.length === 0) return [...inGroup];
  return selected.filter((status) => inGroup.includes(status));
}

function isSortField(value: string): value is TWorklistSortField {
  return (WORKLIST_SORT_FIELDS as readonly string[]).includes(value);
}

function byUserIds(input: TWorklistQueryInput): string[] {
  const ids = [...input.filters.by_user_ids];
  const user = input.user;
  if (user && isReporter(user.role, user.userType) && !ids.includes(user.id)) ids.push(user.id);
  return ids;
}

/** The filters shared by GET /worklist and GET /worklist/status/count, in the wire names of spec §7. */
function filterParams(input: TWorklistQueryInput, statuses: readonly TStudyStatus[]): QueryParams {
  const { filters } = input;
  const custom = filters.date_range_type === 'CUSTOM';
  const search = filters.search.trim();
  return {
    by_user_ids: byUserIds(input),
    statuses,
    modalities: filters.modalities,
    priority_tags: filters.priority_tags,
    facility_ids: filters.facility_ids,
    date_range_type: filters.date_range_type,
    start_date: custom ? filters.start_date : undefined,
    // A date as end_date covers that whole day on the server (up to the next day's midnight).
    end_date: custom ? filters.end_date : undefined,
    time_zone: input.timeZone,
    search: search === '' ? undefined : search,
  };
}

/**
 * Query of GET /worklist/status/count: every filter except the tab, so each tab shows its own count
 * (the status filter still narrows them).
 */
export function buildCountParams(input: TWorklistQueryInput): QueryParams {
  return filterParams(input, input.filters.statuses);
}

/** Query of GET /worklist for one page, or null when the tab and the status filter exclude each other. */
export function buildListParams(
  input: TWorklistQueryInput,
  page: { limit: number; offset: number },
): QueryParams | null {
  const statuses = listStatuses(input.group, input.filters.statuses);
  if (statuses.length === 0) return null;
  const sortBy = isSortField(input.filters.sort_by) ? input.filters.sort_by : 'created_at';
  return {
    ...filterParams(input, statuses),
    limit: page.limit,
    offset: page.offset,
    sort_by: sortBy,
    sort_order: input.filters.sort_order,
  };
}
