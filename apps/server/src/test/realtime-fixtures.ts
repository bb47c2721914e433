// Realtime test data: worklist items as the routes publish them, and marker notifications.
import { randomUUID } from 'node:crypto';
import type { TWorklistItemFacts } from '@ris/domain';
import { eq } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client.ts';
import { studies } from '../db/schema/index.ts';
import type { DomainEvents } from '../events/domain-events.ts';
import { presentWorklistRows, selectWorklistRows } from '../features/studies/study.queries.ts';

/** The wire item of a study, exactly as the worklist routes present (and publish) it. */
export async function worklistItemOf(db: TDbOrTx, studyId: string): Promise<TWorklistItemFacts> {
  const rows = await selectWorklistRows(db).where(eq(studies.id, studyId));
  const [item] = await presentWorklistRows(db, rows);
  if (!item) throw new Error(`no study ${studyId}`);
  return item;
}

/**
 * Emits a notification to a user and returns its id. Tests send one after the event under test: a
 * socket that got the marker but not the event before it was never sent the event (one websocket
 * delivers in order), so non-delivery is asserted without waiting on a clock.
 */
export function emitMarker(events: DomainEvents, organisationId: string, userId: string): string {
  const id = randomUUID();
  events.emit('notification.created', {
    organisationId,
    userId,
    notification: {
      id,
      type: 'TEST_MARKER',
      title: 'marker',
      body: null,
      data: null,
      created_at: new Date().toISOString(),
    },
  });
  return id;
}
