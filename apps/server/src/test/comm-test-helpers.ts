// Shared pieces of the delivery tests (features/comm, integrations/webhooks).
import type { TDeliveryList, TDeliveryMessage, TSendReportResponse } from '@ris/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import * as t from '../db/schema/index.ts';
import type { TWorld, TWorldUser } from './report-test-world.ts';
import type { TTestServer } from './test-server.ts';

/** Jobs that retry within ~100-400 ms and are polled every 50 ms, so outage tests run quickly. */
export const FAST_JOBS_ENV = {
  JOBS_POLL_INTERVAL_MS: '50',
  JOBS_RETRY_BASE_MS: '100',
  JOBS_RETRY_MAX_MS: '400',
};

/** GET /comm/messages?worklist_id= as this user. */
export async function deliveriesOf(
  w: TWorld,
  user: TWorldUser,
  studyId: string,
): Promise<TDeliveryMessage[]> {
  const response = await w.call(user, 'GET', `/comm/messages?worklist_id=${studyId}`);
  if (response.status !== 200) throw new Error(`GET /comm/messages: ${response.status} ${response.text}`);
  return (response.json as TDeliveryList).items;
}

/** Polls the message (as the admin sees it) until it is in one of these states; returns it. */
export async function untilState(
  w: TWorld,
  studyId: string,
  messageId: string,
  states: readonly TDeliveryMessage['state'][],
  timeout = 15_000,
): Promise<TDeliveryMessage> {
  let found: TDeliveryMessage | undefined;
  await expect
    .poll(
      async () => {
        found = (await deliveriesOf(w, 'admin', studyId)).find((message) => message.id === messageId);
        return found?.state;
      },
      { timeout, interval: 25 },
    )
    .toBeOneOf([...states]);
  if (!found) throw new Error(`message ${messageId} not found`);
  return found;
}

/** Sends a share request as the user; the body's by_user_id defaults to the user. */
export async function shareAs(
  server: TTestServer,
  w: TWorld,
  user: TWorldUser,
  channel: 'email' | 'whatsapp',
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const path = `/api/v1/comm/${channel}/send-report-pdf`;
  return server.request('POST', path, {
    token: w.token(user),
    body: { by_user_id: w.users[user].id, with_letterhead: false, ...body },
    headers,
  });
}

export const messagesOf = (response: { json: unknown }) => (response.json as TSendReportResponse).messages;

/** The outbound messages and jobs of a study, straight from the database. */
export async function storedDeliveries(w: TWorld, studyId: string) {
  const messages = await w.server.db
    .select()
    .from(t.outboundMessages)
    .where(eq(t.outboundMessages.studyId, studyId));
  return messages;
}

export async function patientNameOf(w: TWorld, studyId: string): Promise<string> {
  const [row] = await w.server.db
    .select({ name: t.studies.patientName })
    .from(t.studies)
    .where(eq(t.studies.id, studyId));
  return row?.name ?? '';
}
