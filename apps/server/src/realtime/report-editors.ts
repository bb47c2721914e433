import type { TDb } from '../db/client.ts';
import { reportGrantFor } from '../features/reports/report-grant.ts';
import { rooms, type TRealtimeServer } from './realtime-rooms.ts';

/**
 * The sockets (on every replica: their own rooms) subscribed to 'worklist-{studyId}' whose user may
 * edit the report now, by the report policy. Messages meant for editors (insert-report-content) go
 * only to these: a reader of the study, or a referring physician, never receives them.
 */
export async function reportEditorSockets(
  io: TRealtimeServer,
  db: TDb,
  reportId: string,
  studyId: string,
): Promise<string[]> {
  const sockets = await io.in(rooms.item(studyId)).fetchSockets();
  const mayEdit = new Map<string, Promise<boolean>>();
  const ids: string[] = [];
  for (const socket of sockets) {
    const { principal } = socket.data;
    let editor = mayEdit.get(principal.userId);
    if (!editor) {
      editor = reportGrantFor(db, principal, reportId).then((grant) => grant.access === 'edit');
      mayEdit.set(principal.userId, editor);
    }
    if (await editor) ids.push(socket.id);
  }
  return ids;
}
