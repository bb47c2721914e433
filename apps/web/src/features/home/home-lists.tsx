import {
  formatElapsedSince,
  formatElapsedMinutes,
  isOverdue,
  turnaroundTargetMinutes,
  type THomeReportItem,
  type THomeStudyItem,
  type TTurnaroundTargets,
} from '@ris/domain';
import { formatShortDateTime } from '../../components/format-date-time.ts';
import { cn } from '../../components/ui/cn.ts';
import { useOpenItem } from '../tabs/open-tabs-bar.tsx';
import { OverdueClock, PriorityBadge, StatusText } from '../worklist/worklist-cells.tsx';
import { HomeSection } from './home-parts.tsx';

/** What a row says on its right: time since arrival (queues), or when the report last moved. */
export type TRowTime = 'elapsed' | 'report-updated' | 'finalized';

interface ListContext {
  targets: TTurnaroundTargets;
  now: Date;
  time: TRowTime;
  /** Show each row's status (lists that mix statuses). */
  showStatus: boolean;
  /** Show who the study is assigned to (admins' breaches). */
  showAssignee: boolean;
}

function timeText(item: THomeStudyItem | THomeReportItem, { now, time }: ListContext): string {
  if (time !== 'elapsed' && 'report_id' in item) {
    const when =
      time === 'finalized' ? (item.finalized_at ?? item.report_updated_at) : item.report_updated_at;
    return formatShortDateTime(new Date(when));
  }
  // A FINAL study's clock stopped at its finalisation: the server's figure; else it runs on here.
  if (item.status === 'FINAL') return formatElapsedMinutes(item.elapsed_minutes);
  return formatElapsedSince(new Date(item.created_at), now);
}

function StudyRow({ item, context }: { item: THomeStudyItem | THomeReportItem; context: ListContext }) {
  const openItem = useOpenItem();
  const overdue = isOverdue(item, context.targets, context.now);
  const comment = 'comment' in item ? item.comment : null;
  const details = [item.study_description, item.modality_group, item.facility_name]
    .filter(Boolean)
    .join(' · ');
  const time = timeText(item, context);
  return (
    <li>
      <button
        type="button"
        data-home-item={item.id}
        data-overdue={overdue || undefined}
        onClick={() => openItem({ id: item.id, patient_name: item.patient_name })}
        className={cn(
          'flex w-full items-start gap-3 rounded-md px-2 py-1.5 text-left hover:bg-surface-hover',
          'focus-visible:outline-2 focus-visible:outline-focus',
        )}
      >
        <span className="min-w-0 flex-1">
          <span className="flex items-center gap-1.5">
            <span className="truncate text-[13px] font-medium text-fg">{item.patient_name}</span>
            {item.priority_tag ? <PriorityBadge tag={item.priority_tag} /> : null}
            {overdue ? (
              <OverdueClock targetMinutes={turnaroundTargetMinutes(item.priority_tag, context.targets)} />
            ) : null}
          </span>
          <span className="block truncate text-xs text-fg-muted">
            {item.accession_number}
            {details ? ` · ${details}` : ''}
          </span>
          {comment ? <span className="block truncate text-xs text-fg-subtle italic">“{comment}”</span> : null}
        </span>
        <span className="flex shrink-0 flex-col items-end gap-0.5 text-xs">
          {context.showStatus ? <StatusText status={item.status} /> : null}
          {context.showAssignee ? (
            <span className="text-fg-muted">{item.assignee_display_name ?? 'Unassigned'}</span>
          ) : null}
          <span
            className={cn('tabular-nums', overdue ? 'font-medium text-danger' : 'text-fg-subtle')}
            title={context.time === 'elapsed' ? 'Since the study arrived' : undefined}
          >
            {context.time === 'elapsed' ? <span className="sr-only">Waiting </span> : null}
            {time}
          </span>
        </span>
      </button>
    </li>
  );
}

export interface HomeListProps {
  title: string;
  list: { items: readonly (THomeStudyItem | THomeReportItem)[]; total: number };
  emptyText: string;
  targets: TTurnaroundTargets;
  now: Date;
  time?: TRowTime;
  showStatus?: boolean;
  showAssignee?: boolean;
  className?: string;
}

/** A home list of studies (or of reports through their study); each row opens the study in a tab. */
export function HomeList({
  title,
  list,
  emptyText,
  targets,
  now,
  time = 'elapsed',
  showStatus = false,
  showAssignee = false,
  className,
}: HomeListProps) {
  const context: ListContext = { targets, now, time, showStatus, showAssignee };
  const more = list.total - list.items.length;
  return (
    <HomeSection title={title} total={list.total} className={className}>
      {list.items.length === 0 ? (
        <p className="text-[13px] text-fg-muted">{emptyText}</p>
      ) : (
        <ul aria-label={title} className="-mx-2 flex flex-col">
          {list.items.map((item) => (
            <StudyRow key={'report_id' in item ? item.report_id : item.id} item={item} context={context} />
          ))}
        </ul>
      )}
      {more > 0 ? <p className="text-xs text-fg-subtle">{more} more on the worklist</p> : null}
    </HomeSection>
  );
}
