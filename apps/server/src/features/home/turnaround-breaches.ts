// Turnaround breach notifications (issue 16): a durable chain of jobs (one pass a minute by default, as the PACS
// sync chains its passes) finds open studies past their target that were not notified yet, and in ONE
// transaction marks them (turnaround_breach_notified_at) and creates the notifications for the
// assigned radiologist, the organisation's admins and the facility's admins. The mark is taken by
// `update … where id in (select … for update skip locked) and turnaround_breach_notified_at is null`,
// so each study notifies exactly once however many replicas run a pass at the same time.
import { sql } from 'drizzle-orm';
import type { TDb, TDbOrTx } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import type { DomainEvents } from '../../events/domain-events.ts';
import { enqueueJob, type TJobHandler, type TJobOutcome } from '../../jobs/jobs.ts';
import {
  emitNotifications,
  insertNotifications,
  type TCreatedNotification,
} from '../notifications/create-notifications.ts';
import { dueAtSql, loadTurnaroundTargets, overdueSql } from './turnaround-targets.ts';

export const TURNAROUND_BREACH_QUEUE = 'home.turnaround-breaches';
/** Most studies one organisation's pass marks (the rest wait for the next pass). */
const BATCH_SIZE = 500;

/**
 * A breach is news for this long after the study passed its target: a pass runs every minute, so a
 * study crossing its target is told about within a minute. Older breaches (the archive's history when
 * the job first runs, a demo's old studies, days of downtime) are marked without a notification: a
 * flood of old news would bury the new, and the home screen lists every breach anyway.
 */
export const BREACH_NEWS_MS = 60 * 60 * 1000;

type TBreachedStudy = {
  id: string;
  organisation_id: string;
  facility_id: string;
  last_assigned_user_id: string | null;
  patient_name: string;
  study_description: string | null;
  priority_tag: string | null;
  created_at: Date | string;
  /** Passed its target within BREACH_NEWS_MS (else marked without a notification). */
  news: boolean;
};

export type TBreachPass = {
  organisationId: string;
  notifications: TCreatedNotification[];
  studyIds: string[];
};

/** Users told about a breach at a facility: its assigned radiologist, the organisation's and the facility's admins. */
async function recipients(tx: TDbOrTx, study: TBreachedStudy): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select u.id from users u where u.organisation_id = ${study.organisation_id}::uuid
        and u.status = 'ACTIVE' and (u.role = 'ADMIN'
          or (u.role = 'FACILITY_ADMIN' and exists (select 1 from user_facilities uf
            where uf.user_id = u.id and uf.facility_id = ${study.facility_id}::uuid))
          or u.id = ${study.last_assigned_user_id}::uuid)`,
  );
  return rows.map((row) => row.id);
}

/** One organisation's pass, in its own transaction. */
async function notifyOrganisation(db: TDb, organisationId: string, now: Date): Promise<TBreachPass> {
  return db.transaction(async (tx) => {
    const { targets } = await loadTurnaroundTargets(tx, organisationId);
    const nowText = now.toISOString();
    const marked = await queryRows<TBreachedStudy>(
      tx,
      sql`update studies set turnaround_breach_notified_at = ${nowText}::timestamptz
        where studies.id in (select "studies"."id" from studies
            where "studies"."organisation_id" = ${organisationId}::uuid
              and "studies"."turnaround_breach_notified_at" is null
              and ${overdueSql(targets, now)}
            order by "studies"."created_at" limit ${BATCH_SIZE} for update skip locked)
          and studies.turnaround_breach_notified_at is null
        returning studies.id, studies.organisation_id, studies.facility_id, studies.last_assigned_user_id,
          studies.patient_name, studies.study_description, studies.priority_tag, studies.created_at,
          ${dueAtSql(targets)} >= ${new Date(now.getTime() - BREACH_NEWS_MS).toISOString()}::timestamptz as news`,
    );
    const notifications: TCreatedNotification[] = [];
    for (const study of marked) {
      if (!study.news) continue;
      const label = [study.patient_name, study.study_description].filter(Boolean).join(' — ');
      const created = await insertNotifications(tx, {
        organisationId,
        userIds: await recipients(tx, study),
        type: 'turnaround-breach',
        title: 'A study passed its turnaround target',
        body: [label, study.priority_tag].filter(Boolean).join(' — ') || null,
        data: {
          worklist_id: study.id,
          facility_fk: study.facility_id,
          priority_tag: study.priority_tag,
          created_at: new Date(study.created_at).toISOString(),
        },
      });
      notifications.push(...created);
    }
    return { organisationId, notifications, studyIds: marked.map((study) => study.id) };
  });
}

/**
 * Marks and notifies every study past its target at `now` not notified yet (at most BATCH_SIZE per
 * organisation a pass), then announces the notifications (realtime user-notification) after commit.
 */
export async function notifyTurnaroundBreaches(
  db: TDb,
  events: DomainEvents,
  now: Date,
): Promise<TBreachPass[]> {
  const organisations = await queryRows<{ id: string }>(
    db,
    sql`select id from organisations where status = 'ACTIVE' order by id`,
  );
  const passes: TBreachPass[] = [];
  for (const { id } of organisations) {
    const pass = await notifyOrganisation(db, id, now);
    if (pass.studyIds.length === 0) continue;
    emitNotifications(events, id, pass.notifications);
    passes.push(pass);
  }
  return passes;
}

/** The queue's handler: one pass, then (when it settles) the next pass in a minute. */
export function turnaroundBreachHandler(deps: {
  db: TDb;
  events: DomainEvents;
  now: () => Date;
  /** Seconds until the next pass (config TURNAROUND_BREACH_INTERVAL_SECONDS); 0 ends the chain. */
  intervalSeconds: number;
}): TJobHandler {
  return {
    async run() {
      const passes = await notifyTurnaroundBreaches(deps.db, deps.events, deps.now());
      return { studies: passes.reduce((sum, pass) => sum + pass.studyIds.length, 0) };
    },
    async settle(tx, job, outcome: TJobOutcome) {
      if (outcome.kind === 'failed' && outcome.willRetry) return;
      await tx.execute(
        sql`delete from jobs where queue = ${TURNAROUND_BREACH_QUEUE} and status in ('succeeded', 'failed')
          and id <> ${job.id} and updated_at < now() - interval '1 minute'`,
      );
      if (deps.intervalSeconds <= 0) return;
      await enqueueJob(tx, {
        queue: TURNAROUND_BREACH_QUEUE,
        payload: {},
        idempotencyKey: `${TURNAROUND_BREACH_QUEUE}:after:${job.id}`,
        runAt: new Date(Date.now() + deps.intervalSeconds * 1_000),
        maxAttempts: 3,
      });
    },
  };
}

/** Starts the chain when none is waiting or running (first start, restored database); one per cluster. */
export async function ensureBreachChain(db: TDb): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${TURNAROUND_BREACH_QUEUE}, 0))`);
    const live = await queryRows<{ id: string }>(
      tx,
      sql`select id from jobs where queue = ${TURNAROUND_BREACH_QUEUE} and status in ('pending', 'running') limit 1`,
    );
    if (live.length > 0) return;
    await enqueueJob(tx, {
      queue: TURNAROUND_BREACH_QUEUE,
      payload: {},
      idempotencyKey: `${TURNAROUND_BREACH_QUEUE}:start:${Date.now()}`,
      maxAttempts: 3,
    });
  });
}
