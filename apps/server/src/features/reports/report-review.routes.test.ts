import type { TWorklistItem } from '@ris/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../db/schema/index.ts';
import type { TDomainEventMap } from '../../events/domain-events.ts';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../test/report-test-world.ts';

let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
});

const review = (user: TWorldUser, studyId: string, status: 'IN_REVIEW' | 'DRAFTED', comment?: string) =>
  w.call(user, 'PUT', `/worklist/${studyId}`, {
    status,
    ...(comment === undefined ? {} : { comment }),
    by_user_id: w.users[user].id,
  });

const notificationsOf = (user: TWorldUser, studyId: string) =>
  server.db
    .select()
    .from(t.notifications)
    .where(eq(t.notifications.userId, w.users[user].id))
    .then((rows) =>
      rows.filter((row) => (row.data as { worklist_id?: string } | null)?.worklist_id === studyId),
    );

const historyOf = (studyId: string) =>
  w.call('admin', 'GET', `/worklist/statuses/${studyId}`).then(
    (response) =>
      (
        response.json as {
          history: {
            from_status: string | null;
            to_status: string;
            by_user_fk: string;
            comment: string | null;
          }[];
        }
      ).history,
  );

describe('review hand-off through PUT /worklist/{id}', () => {
  it('a transcriptionist submits a draft; the assigned radiologist is notified live', async () => {
    const { studyId } = await w.studyWithReport({ status: 'DRAFTED', collaborationEnabled: true });
    const seen: TDomainEventMap['notification.created'][] = [];
    const off = server.app.events.on('notification.created', (event) => seen.push(event));
    const response = await review('transcriptionist', studyId, 'IN_REVIEW', 'Please check the impression');
    off();
    expect(response.status, response.text).toBe(200);
    expect((response.json as TWorklistItem).status).toBe('IN_REVIEW');
    const [notification] = await notificationsOf('radiologist', studyId);
    expect(notification).toMatchObject({ type: 'report-review-requested', isRead: false });
    expect(seen).toEqual([
      expect.objectContaining({
        userId: w.users.radiologist.id,
        notification: expect.objectContaining({ id: notification?.id, type: 'report-review-requested' }),
      }),
    ]);
    expect((await historyOf(studyId)).at(-1)).toMatchObject({
      from_status: 'DRAFTED',
      to_status: 'IN_REVIEW',
      by_user_fk: w.users.transcriptionist.id,
      comment: 'Please check the impression',
    });
  });

  it('saves an assigned study as draft on the way, both moves in the history in order', async () => {
    const { studyId } = await w.studyWithReport({ collaborationEnabled: true });
    expect((await review('transcriptionist', studyId, 'IN_REVIEW')).status).toBe(200);
    const history = await historyOf(studyId);
    expect(history.slice(-2).map((entry) => [entry.from_status, entry.to_status])).toEqual([
      ['ASSIGNED', 'DRAFTED'],
      ['DRAFTED', 'IN_REVIEW'],
    ]);
    const [report] = await server.db.select().from(t.reports).where(eq(t.reports.studyId, studyId));
    expect(report?.status).toBe('DRAFTED');
  });

  it('refuses submitters who may not, and studies without a report', async () => {
    const off = await w.studyWithReport({ status: 'DRAFTED', collaborationEnabled: false });
    expect((await review('transcriptionist', off.studyId, 'IN_REVIEW')).status).toBe(403);
    expect((await review('otherRadiologist', off.studyId, 'IN_REVIEW')).status).toBe(403);
    expect((await review('radiologist', off.studyId, 'IN_REVIEW')).status).toBe(403);
    expect((await review('referrer', off.studyId, 'IN_REVIEW')).status).toBe(404);
    expect((await review('outsider', off.studyId, 'IN_REVIEW')).status).toBe(404);
    expect(await w.studyStatus(off.studyId)).toBe('DRAFTED');
    expect(await notificationsOf('radiologist', off.studyId)).toEqual([]);
    const empty = await w.study({ status: 'DRAFTED', collaborationEnabled: true });
    const response = await review('transcriptionist', empty.id, 'IN_REVIEW');
    expect(response.status).toBe(409);
    expect(response.text).toContain('Write the report');
  });

  it('a reporter who is the assignee submits; the admins review', async () => {
    const { studyId } = await w.studyWithReport({ status: 'DRAFTED', assignee: 'reporter' });
    expect((await review('reporter', studyId, 'IN_REVIEW')).status).toBe(200);
    expect(await notificationsOf('admin', studyId)).toEqual([
      expect.objectContaining({ type: 'report-review-requested' }),
    ]);
  });

  it('the radiologist returns it with a comment; the submitter is notified', async () => {
    const { studyId } = await w.studyWithReport({ status: 'DRAFTED', collaborationEnabled: true });
    expect((await review('transcriptionist', studyId, 'IN_REVIEW')).status).toBe(200);
    expect((await review('transcriptionist', studyId, 'DRAFTED', 'nope')).status).toBe(403);
    expect((await review('otherRadiologist', studyId, 'DRAFTED', 'nope')).status).toBe(403);
    const response = await review('radiologist', studyId, 'DRAFTED', 'Add the measurements');
    expect(response.status, response.text).toBe(200);
    expect((response.json as TWorklistItem).status).toBe('DRAFTED');
    expect(await notificationsOf('transcriptionist', studyId)).toEqual([
      expect.objectContaining({
        type: 'report-returned',
        body: expect.stringContaining('Add the measurements'),
      }),
    ]);
    expect((await historyOf(studyId)).at(-1)).toMatchObject({
      from_status: 'IN_REVIEW',
      to_status: 'DRAFTED',
      by_user_fk: w.users.radiologist.id,
      comment: 'Add the measurements',
    });
    // Not in review any more: returning again is a conflict.
    expect((await review('radiologist', studyId, 'DRAFTED')).status).toBe(409);
  });

  it('the radiologist finalizes from IN_REVIEW', async () => {
    const { studyId, report } = await w.studyWithReport({ status: 'DRAFTED', collaborationEnabled: true });
    expect((await review('transcriptionist', studyId, 'IN_REVIEW')).status).toBe(200);
    const final = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
    });
    expect(final.status).toBe(200);
    expect(await w.studyStatus(studyId)).toBe('FINAL');
    expect((await historyOf(studyId)).at(-1)).toMatchObject({ from_status: 'IN_REVIEW', to_status: 'FINAL' });
    const rows = await server.db
      .select()
      .from(t.notifications)
      .where(
        and(
          eq(t.notifications.userId, w.users.transcriptionist.id),
          eq(t.notifications.type, 'report-returned'),
        ),
      );
    expect(rows.filter((row) => (row.data as { worklist_id?: string }).worklist_id === studyId)).toEqual([]);
  });
});
