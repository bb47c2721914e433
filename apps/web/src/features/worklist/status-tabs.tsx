import {
  STATUS_GROUPS,
  STATUS_GROUP_LABELS,
  type TStatusGroup,
  type TWorklistStatusCounts,
  WORKLIST_SEARCH_COUNT_CAP,
} from '@ris/domain';
import { cn } from '../../components/ui/cn.ts';

export interface StatusTabsProps {
  value: TStatusGroup;
  onChange: (group: TStatusGroup) => void;
  counts: TWorklistStatusCounts | undefined;
}

const CAP = WORKLIST_SEARCH_COUNT_CAP.toLocaleString('en-US');

/**
 * A tab's count and its title: as counted; or, counted up to the cap (a search), as a lower bound no
 * higher than the list's ("1,000+", "206+"), and "?" for a tab none of the counted matches fell in
 * ("0+" read as a count of none, where the tab may hold many).
 */
function shownCount(count: number, capped: boolean): { text: string; title?: string } {
  if (!capped) return { text: count.toLocaleString('en-US') };
  if (count === 0) {
    return {
      text: '?',
      title: `Not counted: none of the first ${CAP} matches of the search is in this tab; open it to see its own`,
    };
  }
  return {
    text: `${Math.min(count, WORKLIST_SEARCH_COUNT_CAP).toLocaleString('en-US')}+`,
    title: `At least this many: a search counts its matches up to ${CAP}`,
  };
}

/**
 * The filter tabs All / Ordered / In Progress / Completed with live counts. They filter the one table
 * below rather than switch panels, so they are a group of pressed-state buttons. A search counts up
 * to a cap: its counts are lower bounds, shown as "1,000+" and "206+" ("?" where none was counted).
 */
export function StatusTabs({ value, onChange, counts }: StatusTabsProps) {
  return (
    <div role="group" aria-label="Status" className="flex items-center gap-1 border-b border-line">
      {STATUS_GROUPS.map((group) => {
        const active = group === value;
        const count = counts?.groups[group];
        const shown = count === undefined ? { text: '–' } : shownCount(count, counts?.capped ?? false);
        return (
          <button
            key={group}
            type="button"
            aria-pressed={active}
            onClick={() => onChange(group)}
            className={cn(
              '-mb-px flex h-9 items-center gap-2 border-b-2 px-3 text-[13px] font-medium transition-colors',
              active ? 'border-accent text-fg' : 'border-transparent text-fg-muted hover:text-fg',
            )}
          >
            {STATUS_GROUP_LABELS[group]}
            <span
              data-testid={`count-${group}`}
              title={shown.title}
              className={cn(
                'min-w-6 rounded-full px-1.5 py-px text-center text-[11px] tabular-nums',
                active ? 'bg-accent text-accent-fg' : 'bg-surface-hover text-fg-muted',
              )}
            >
              {shown.text}
            </span>
          </button>
        );
      })}
    </div>
  );
}
