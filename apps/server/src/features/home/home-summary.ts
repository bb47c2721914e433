// GET /home/summary: the sections of the caller's role (ZHomeSummary), each from its own bounded query.
import { isValidTimeZone, resolveDateRange, type THomeSummary } from '@ris/domain';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { adminSections } from './home-admin.ts';
import {
  myDrafts,
  myFigures,
  myQueue,
  recentFinals,
  returnedToMe,
  submittedForReview,
  typingQueue,
  type THomeContext,
} from './home-personal.ts';
import { loadTurnaroundTargets } from './turnaround-targets.ts';

type TSections = Omit<THomeSummary, 'generated_at' | 'time_zone' | 'turnaround_targets'>;

async function sectionsOf(context: THomeContext): Promise<TSections> {
  switch (context.scope.principal.role) {
    case 'RADIOLOGIST': {
      const [queue, drafts, returned, figures] = await Promise.all([
        myQueue(context),
        myDrafts(context),
        returnedToMe(context),
        myFigures(context),
      ]);
      return {
        my_queue: queue,
        my_drafts: drafts,
        returned_to_me: returned,
        my_finals_today: figures.finalsToday,
        my_median_turnaround_week_minutes: figures.medianWeekMinutes,
      };
    }
    case 'TRANSCRIPTIONIST': {
      const [typing, submitted] = await Promise.all([typingQueue(context), submittedForReview(context)]);
      return { typing_queue: typing, submitted_for_review: submitted };
    }
    case 'ADMIN':
    case 'FACILITY_ADMIN':
      return adminSections(context);
    case 'REFERRING_PHYSICIAN':
      return { recent_finals: await recentFinals(context) };
    default:
      return {};
  }
}

export async function readHomeSummary(
  db: TDbOrTx,
  scope: TScope,
  input: { timeZone: string; now: Date },
): Promise<THomeSummary> {
  if (!isValidTimeZone(input.timeZone)) {
    throw new AppError('VALIDATION_FAILED', 'time_zone: is not a known IANA time zone', {
      field: 'time_zone',
    });
  }
  const { targets } = await loadTurnaroundTargets(db, scope.organisationId);
  const today = resolveDateRange({ type: 'TODAY', now: input.now, timeZone: input.timeZone });
  const context: THomeContext = { db, scope, targets, now: input.now, todayStart: today.start };
  return {
    generated_at: input.now.toISOString(),
    time_zone: input.timeZone,
    turnaround_targets: targets,
    ...(await sectionsOf(context)),
  };
}
