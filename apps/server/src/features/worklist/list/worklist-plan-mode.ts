// How the worklist's statements are planned (worklist-sql.ts, TPlanMode): generic (planned once per
// connection) where PostgreSQL has one sensible plan whatever the parameters, else for each request's.
import type { TWorklistCriteria } from './worklist-criteria.ts';
import { OPEN_STATUSES } from './worklist-search-open.ts';
import type { TPlanMode } from './worklist-sql.ts';

/**
 * How the statements under `criteria` are planned (worklist-sql.ts). Generic (planned once per
 * connection) only where PostgreSQL has one sensible plan whatever the parameters: the whole
 * organisation (admins) with no facility, assignee or search filter, where only the indexes led by
 * organisation_id apply (a page walks studies_organisation_created_idx in order; a count reads its
 * range). With a facility list or an assignee the best index depends on how many studies the
 * facilities and dates hold: the generic plan of a radiologist's page (5 facilities) collected and
 * sorted every match of the range (18 ms for a week) where the planned one reads 0.6 ms. A priority
 * filter is planned for its tags too: few studies carry one, and over all dates only the partial
 * priority index finds them without reading the organisation's every entry.
 */
export function planModeOf(criteria: TWorklistCriteria): TPlanMode {
  const { scope } = criteria;
  const orgWide =
    scope.allFacilities &&
    scope.principal.role === 'ADMIN' &&
    criteria.facilityIds.length === 0 &&
    criteria.byUserIds.length === 0 &&
    criteria.priorityTags.length === 0 &&
    criteria.searchText === null;
  return orgWide ? 'generic' : 'custom';
}

/**
 * How the list's statement is planned (listWorklistJson). Filters whose matches are dense in an index
 * are walked whatever the total (`walked`, worklist-page-walk.ts): one sensible plan, generic. A page
 * sorted by another column whose statement holds a prefix walk (`prefixWalk`) too, but for open
 * studies under a priority filter: its collected branch reads the open studies' priority index,
 * whose condition (`status not in ('FINAL', 'DELETED')`) a generic plan cannot prove from a parameter
 * (an admin's open studies tagged follow-up by study date, 571 matches: 215 ms generic, 1.6 planned).
 * Otherwise planModeOf decides.
 */
export function listPlanOf(
  criteria: TWorklistCriteria,
  form: { walked: boolean; prefixWalk: boolean },
): TPlanMode {
  const openPriorities =
    criteria.priorityTags.length > 0 && criteria.statuses.every((status) => OPEN_STATUSES.includes(status));
  return form.walked || (form.prefixWalk && !openPriorities) ? 'generic' : planModeOf(criteria);
}
