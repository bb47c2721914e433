import type { THomeSummary, TTurnaroundTargets } from '@ris/domain';
import { useQuery } from '@tanstack/react-query';
import { House, RefreshCw } from 'lucide-react';
import { errorMessage } from '../../api/api-error.ts';
import { formatDuration } from '../../components/format-duration.ts';
import { useMinuteClock } from '../../components/hooks/use-minute-clock.ts';
import { Page } from '../../components/layout/page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useAuth } from '../../stores/auth-store.ts';
import { ConnectionIndicator } from '../realtime/connection-indicator.tsx';
import { AdminHome } from './home-admin.tsx';
import { browserTimeZone, homeApi, homeKeys, LOAD_HOME_FAILED } from './home-api.ts';
import { HomeList } from './home-lists.tsx';
import { StatTile } from './home-parts.tsx';
import { useHomeLiveRefresh, type TLiveMessages } from './use-home-live-refresh.ts';

interface SectionsProps {
  summary: THomeSummary;
  targets: TTurnaroundTargets;
  now: Date;
}

/** A radiologist's (or reporter's) home: what is theirs to read, write and fix, and how fast. */
function ReadingHome({ summary, targets, now }: SectionsProps) {
  const median = summary.my_median_turnaround_week_minutes;
  if (!summary.my_queue && !summary.my_drafts && !summary.returned_to_me && median === undefined) return null;
  return (
    <>
      {summary.my_finals_today !== undefined || median !== undefined ? (
        <dl aria-label="My figures" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {summary.my_finals_today !== undefined ? (
            <StatTile label="My finals today" value={String(summary.my_finals_today)} />
          ) : null}
          {median !== undefined ? (
            <StatTile
              label="My median turnaround, last 7 days"
              value={median === null ? '—' : formatDuration(median)}
              hint={median === null ? 'No final in the last 7 days' : 'Arrival to final'}
            />
          ) : null}
        </dl>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-2">
        {summary.my_queue ? (
          <HomeList
            title="My queue"
            list={summary.my_queue}
            emptyText="Nothing is assigned to you."
            targets={targets}
            now={now}
            showStatus
            className="lg:row-span-2"
          />
        ) : null}
        {summary.returned_to_me ? (
          <HomeList
            title="Returned to me"
            list={summary.returned_to_me}
            emptyText="No report was returned to you."
            targets={targets}
            now={now}
            time="report-updated"
          />
        ) : null}
        {summary.my_drafts ? (
          <HomeList
            title="My drafts"
            list={summary.my_drafts}
            emptyText="You have no drafts."
            targets={targets}
            now={now}
          />
        ) : null}
      </div>
    </>
  );
}

/** A transcriptionist's home: what waits for typing, and what they sent for review. */
function TypingHome({ summary, targets, now }: SectionsProps) {
  if (!summary.typing_queue && !summary.submitted_for_review) return null;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      {summary.typing_queue ? (
        <HomeList
          title="Waiting for typing"
          list={summary.typing_queue}
          emptyText="Nothing is waiting for typing."
          targets={targets}
          now={now}
          showStatus
        />
      ) : null}
      {summary.submitted_for_review ? (
        <HomeList
          title="Submitted for review"
          list={summary.submitted_for_review}
          emptyText="None of your reports is waiting for review."
          targets={targets}
          now={now}
          time="report-updated"
        />
      ) : null}
    </div>
  );
}

/** A referring physician's home: their patients' latest final reports. */
function ReferrerHome({ summary, targets, now }: SectionsProps) {
  if (!summary.recent_finals) return null;
  return (
    <HomeList
      title="Recent final reports"
      list={summary.recent_finals}
      emptyText="None of your patients has a final report yet."
      targets={targets}
      now={now}
      time="finalized"
    />
  );
}

/**
 * The sections the server sent (a section absent from the summary is not for this caller): every
 * role's part is drawn only when its sections are there, so the server alone decides who sees what.
 */
function HomeSections(props: SectionsProps) {
  return (
    <>
      <ReadingHome {...props} />
      <TypingHome {...props} />
      <AdminHome summary={props.summary} targets={props.targets} now={props.now} />
      <ReferrerHome {...props} />
    </>
  );
}

/** / : what the signed-in person needs first, from GET /home/summary, refreshed on worklist changes. */
export function HomePage({ live }: { live?: TLiveMessages } = {}) {
  const user = useAuth((state) => state.user);
  const name = user?.display_name || [user?.first_name, user?.last_name].filter(Boolean).join(' ');
  const timeZone = browserTimeZone();
  const queryKey = homeKeys.summary(timeZone);
  const summary = useQuery({
    queryKey,
    queryFn: ({ signal }) => homeApi.summary(timeZone, signal),
    enabled: Boolean(user),
  });
  useHomeLiveRefresh(queryKey, live);
  const now = useMinuteClock();

  return (
    <Page
      title="Home"
      description={name ? `Welcome, ${name}.` : undefined}
      actions={
        <div className="flex items-center gap-2">
          <ConnectionIndicator />
          <Button variant="ghost" size="sm" onClick={() => void summary.refetch()} aria-label="Refresh home">
            <RefreshCw
              aria-hidden="true"
              className={summary.isFetching ? 'size-3.5 animate-spin' : 'size-3.5'}
            />
          </Button>
        </div>
      }
    >
      {summary.isPending ? (
        <p role="status" className="flex items-center gap-2 text-[13px] text-fg-muted">
          <Spinner /> Loading your home screen…
        </p>
      ) : summary.isError ? (
        <EmptyState icon={House} title={errorMessage(summary.error, LOAD_HOME_FAILED)} />
      ) : (
        <HomeSections
          summary={summary.data}
          targets={summary.data.turnaround_targets}
          now={laterOf(now, summary.data.generated_at)}
        />
      )}
    </Page>
  );
}

/**
 * The clock the lists count from: the minute clock, or the summary's own instant when that is
 * later (a refetch just now), so a fresh summary never looks older than the server said.
 */
function laterOf(now: Date, generatedAt: string): Date {
  const generated = new Date(generatedAt);
  return generated.getTime() > now.getTime() ? generated : now;
}
