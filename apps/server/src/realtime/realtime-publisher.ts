import { REALTIME_MESSAGE_EVENT, type TRealtimeMessage } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { TDb } from '../db/client.ts';
import { studies } from '../db/schema/index.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { sanitizeReportHtml } from '../html/sanitize-report-html.ts';
import { rooms, type TRealtimeServer } from './realtime-rooms.ts';
import { reportEditorSockets } from './report-editors.ts';

/** The referring physician of a (possibly soft-deleted) study, for events that do not carry it. */
async function referringPhysicianOf(db: TDb, studyId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: studies.referringPhysicianId })
    .from(studies)
    .where(eq(studies.id, studyId));
  return row?.id ?? null;
}

/** Who may see a worklist item: its facility's staff, its organisation's admins, its referrer. */
function worklistRooms(
  organisationId: string,
  studyId: string,
  facilityId: string,
  referringPhysicianId: string | null,
): string[] {
  const to = [rooms.facility(facilityId), rooms.organisationWorklist(organisationId), rooms.item(studyId)];
  if (referringPhysicianId) to.push(rooms.referrer(referringPhysicianId));
  return to;
}

/**
 * Turns committed domain events into socket.io messages, sent only to the rooms allowed to see them.
 * With the Redis adapter, `io.to(...)` reaches the sockets of every replica. Messages leave in the
 * order the events were emitted, also when one of them needs a lookup first. Returns an unsubscribe.
 */
export function publishDomainEvents(
  io: TRealtimeServer,
  events: DomainEvents,
  db: TDb,
  log: FastifyBaseLogger,
): () => void {
  let tail: Promise<void> | null = null;

  function deliver(to: string[] | Promise<string[]>, message: TRealtimeMessage): void {
    // No room at all is nobody (socket.io would take `to([])` for everyone).
    if (tail === null && Array.isArray(to)) {
      if (to.length > 0) io.to(to).emit(REALTIME_MESSAGE_EVENT, message);
      return;
    }
    const current: Promise<void> = (tail ?? Promise.resolve())
      .then(async () => {
        const resolved = await to;
        if (resolved.length > 0) io.to(resolved).emit(REALTIME_MESSAGE_EVENT, message);
      })
      .catch((error: unknown) => log.error({ err: error, type: message.type }, 'realtime delivery failed'))
      .finally(() => {
        if (tail === current) tail = null;
      });
    tail = current;
  }

  const unsubscribe = [
    events.on('worklist.item.changed', ({ organisationId, item }) =>
      deliver(worklistRooms(organisationId, item.id, item.facility_fk, item.referring_physician_fk), {
        type: 'worklist-status-update',
        data: { action: 'upsert', item },
      }),
    ),
    events.on('worklist.item.deleted', ({ organisationId, id, facilityId }) =>
      deliver(
        referringPhysicianOf(db, id).then((referrer) =>
          worklistRooms(organisationId, id, facilityId, referrer),
        ),
        { type: 'worklist-status-update', data: { action: 'delete', id, facility_fk: facilityId } },
      ),
    ),
    events.on('notification.created', ({ userId, notification }) =>
      deliver([rooms.notification(userId)], { type: 'user-notification', data: { notification } }),
    ),
    events.on('report.insert-content', ({ reportId, studyId, content }) => {
      const html = sanitizeReportHtml(content, { reportId });
      if (html.trim() === '') return;
      deliver(reportEditorSockets(io, db, reportId, studyId), {
        type: 'insert-report-content',
        data: { report_id: reportId, content: html },
      });
    }),
    // Only the report's id: the screen reads the list through the API, which applies the report's rules.
    events.on('dictation.recordings.changed', ({ reportId, studyId }) =>
      deliver([rooms.item(studyId)], {
        type: 'dictation-recordings-changed',
        data: { report_id: reportId },
      }),
    ),
  ];
  return () => {
    for (const off of unsubscribe) off();
  };
}
