import { HOME_WAITING_STATUSES, label, type THomeSummary, type TTurnaroundTargets } from '@ris/domain';
import { useState } from 'react';
import { formatDuration } from '../../components/format-duration.ts';
import { cn } from '../../components/ui/cn.ts';
import { PriorityBadge } from '../worklist/worklist-cells.tsx';
import { colourAt, formatAxisMinutes, formatCount, type TChartSeries } from './chart-data.ts';
import { ChartFigure } from './chart-figure.tsx';
import {
  priorityText,
  turnaroundRows,
  unassignedInOrder,
  waitingByFacility,
  waitingByStatus,
  workloadRows,
} from './home-figures.ts';
import { HomeList } from './home-lists.tsx';
import { HomeSection } from './home-parts.tsx';

const WAITING_SERIES: readonly TChartSeries[] = [{ key: 'count', label: 'Studies', colour: colourAt(0) }];

const WORKLOAD_SERIES: readonly TChartSeries[] = [
  { key: 'assigned', label: 'Assigned', colour: colourAt(0) },
  { key: 'in_progress', label: 'In progress', colour: colourAt(1) },
  { key: 'finals_today', label: 'Finals today', colour: colourAt(2) },
];

const TURNAROUND_SERIES: readonly TChartSeries[] = [
  { key: 'median', label: 'Median', colour: colourAt(0) },
  { key: 'p90', label: '90th percentile', colour: colourAt(1) },
  // A 24 h target drawn beside 40 min medians would flatten them: the target is in the table.
  { key: 'target', label: 'Target', colour: '', drawn: false },
  { key: 'count', label: 'Finals', colour: '', drawn: false, format: formatCount },
];

type TPeriod = 'today' | 'last_7_days';
const PERIODS: readonly { id: TPeriod; label: string }[] = [
  { id: 'today', label: 'Today' },
  { id: 'last_7_days', label: 'Last 7 days' },
];

function WaitingSection({ waiting }: { waiting: NonNullable<THomeSummary['waiting']> }) {
  const facilities = waitingByFacility(waiting);
  return (
    <HomeSection title="Waiting" className="lg:col-span-3">
      <div className="grid gap-6 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <ChartFigure
          title="Waiting per status"
          category="Status"
          rows={waitingByStatus(waiting)}
          series={WAITING_SERIES}
          format={formatCount}
          horizontal
          emptyText="Nothing is waiting."
        />
        <div className="min-w-0 overflow-x-auto">
          <table className="w-full text-[12px] tabular-nums">
            <caption className="pb-2 text-left text-sm font-semibold text-fg">Waiting per facility</caption>
            <thead>
              <tr className="border-b border-line text-left text-fg-subtle">
                <th scope="col" className="py-1 pr-2 font-medium">
                  Facility
                </th>
                {HOME_WAITING_STATUSES.map((status) => (
                  <th key={status} scope="col" className="py-1 pl-2 text-right font-medium">
                    {label(status)}
                  </th>
                ))}
                <th scope="col" className="py-1 pl-2 text-right font-medium">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {facilities.length === 0 ? (
                <tr>
                  <td colSpan={HOME_WAITING_STATUSES.length + 2} className="py-2 text-fg-muted">
                    Nothing is waiting.
                  </td>
                </tr>
              ) : (
                facilities.map((facility) => (
                  <tr key={facility.facility_id} className="border-b border-line last:border-0">
                    <th scope="row" className="max-w-48 truncate py-1 pr-2 text-left font-normal text-fg">
                      {facility.facility_name}
                    </th>
                    {HOME_WAITING_STATUSES.map((status) => (
                      <td key={status} className="py-1 pl-2 text-right text-fg-muted">
                        {facility.counts[status] || '—'}
                      </td>
                    ))}
                    <td className="py-1 pl-2 text-right font-medium text-fg">{facility.total}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
    </HomeSection>
  );
}

function UnassignedSection({ counts }: { counts: NonNullable<THomeSummary['unassigned_by_priority']> }) {
  const ordered = unassignedInOrder(counts);
  const total = ordered.reduce((sum, row) => sum + row.count, 0);
  return (
    <HomeSection title="Unassigned" total={total} className="self-start">
      {ordered.length === 0 ? (
        <p className="text-[13px] text-fg-muted">Every study to read has a radiologist.</p>
      ) : (
        <dl aria-label="Unassigned by priority" className="flex flex-col">
          {ordered.map((row) => (
            <div
              key={row.priority_tag ?? 'untagged'}
              className="flex items-center justify-between border-b border-line py-1.5 last:border-0"
            >
              <dt className="text-[13px] text-fg">
                {row.priority_tag ? (
                  <>
                    <PriorityBadge tag={row.priority_tag} />
                    <span className="sr-only">{priorityText(row.priority_tag)}</span>
                  </>
                ) : (
                  <span className="text-fg-muted">Untagged</span>
                )}
              </dt>
              <dd className="text-[13px] font-semibold text-fg tabular-nums">{row.count}</dd>
            </div>
          ))}
        </dl>
      )}
    </HomeSection>
  );
}

function TurnaroundSection({ turnaround }: { turnaround: NonNullable<THomeSummary['turnaround']> }) {
  const [period, setPeriod] = useState<TPeriod>('today');
  const rows = turnaroundRows(turnaround[period]);
  return (
    <HomeSection
      title="Turnaround"
      className="lg:col-span-2"
      actions={
        <div role="group" aria-label="Turnaround period" className="flex gap-1">
          {PERIODS.map((item) => (
            <button
              key={item.id}
              type="button"
              aria-pressed={period === item.id}
              onClick={() => setPeriod(item.id)}
              className={cn(
                'h-6 rounded px-2 text-xs font-medium transition-colors',
                period === item.id ? 'bg-accent-soft text-fg' : 'text-fg-muted hover:text-fg',
              )}
            >
              {item.label}
            </button>
          ))}
        </div>
      }
    >
      <ChartFigure
        title={`Turnaround per priority, ${period === 'today' ? 'today' : 'last 7 days'} (arrival to final)`}
        category="Priority"
        rows={rows}
        series={TURNAROUND_SERIES}
        format={formatDuration}
        axisFormat={formatAxisMinutes}
        emptyText={period === 'today' ? 'No study was finalised today.' : 'No study was finalised in 7 days.'}
      />
    </HomeSection>
  );
}

/** The admin's and facility admin's home: the queue, the people, the turnaround, the breaches. */
export function AdminHome({
  summary,
  targets,
  now,
}: {
  summary: THomeSummary;
  targets: TTurnaroundTargets;
  now: Date;
}) {
  const { waiting, turnaround, unassigned_by_priority, workload, breaches } = summary;
  if (!waiting && !turnaround && !unassigned_by_priority && !workload && !breaches) return null;
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      {summary.waiting ? <WaitingSection waiting={summary.waiting} /> : null}
      {summary.turnaround ? <TurnaroundSection turnaround={summary.turnaround} /> : null}
      {summary.unassigned_by_priority ? <UnassignedSection counts={summary.unassigned_by_priority} /> : null}
      {summary.workload ? (
        <HomeSection title="Radiologist workload" className="self-start lg:col-span-2">
          <ChartFigure
            title="Studies per radiologist"
            category="Radiologist"
            rows={workloadRows(summary.workload)}
            series={WORKLOAD_SERIES}
            format={formatCount}
            horizontal
            emptyText="No radiologist has studies assigned or finalised today."
          />
        </HomeSection>
      ) : null}
      {summary.breaches ? (
        <HomeList
          title="Past the turnaround target"
          list={summary.breaches}
          emptyText="Nothing is past its target."
          targets={targets}
          now={now}
          showStatus
          showAssignee
          className="self-start"
        />
      ) : null}
    </div>
  );
}
