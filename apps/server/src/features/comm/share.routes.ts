import rateLimit from '@fastify/rate-limit';
import {
  MAX_REPORT_RECIPIENTS,
  ZErrorBody,
  ZSendReportEmailBody,
  ZSendReportResponse,
  ZSendReportWhatsappBody,
  type TDeliveryChannel,
  type TDeliveryMessage,
} from '@ris/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { assertActingAs } from '../../access/acting-as.ts';
import { loadScope } from '../../access/scope.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { userRateLimitOptions } from '../report-output/user-rate-limit.ts';
import { loadDeliveries } from './deliveries.ts';
import { shareReport } from './share-report.ts';

const security = [{ bearerAuth: [] }];
const tags = ['communication'];

/** Share requests one user may make in the window, e-mail and WhatsApp together. */
export const SHARE_RATE_LIMIT = { max: 30, timeWindowMs: 10 * 60_000 };

const ZIdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'The same key (from the same user, for the same study, channel and recipient) yields the same message',
    ),
});

const ZShareResponses = {
  ...ZErrorResponses,
  409: ZErrorBody.describe('Only a final report can be shared'),
  429: ZErrorBody.describe('Too many share requests from this user'),
};

const SHARE_NOTE = `Who may read the report may share it: administrators; facility administrators, radiologists and transcriptionists of the study's facility; the referring physician of the study. Only a FINAL report (409 otherwise). by_user_id must be the caller (403). At most ${MAX_REPORT_RECIPIENTS} recipients; duplicates are sent once. One message per recipient, delivered by a durable job with retries when the provider is configured; otherwise the message stays in the outbox (state "outbox"). The PDF is rendered at delivery. ${SHARE_RATE_LIMIT.max} share requests per user per 10 minutes, e-mail and WhatsApp together (429 beyond).`;

/** The provider of a channel is configured in this deployment (else messages stay in the outbox). */
function providerConfigured(app: FastifyInstance, channel: TDeliveryChannel): boolean {
  return channel === 'email' ? app.identity.mailer.kind === 'smtp' : app.deps.config.whatsapp !== null;
}

/** The sender's view of these messages, in the order of `ids`. */
async function presentInOrder(app: FastifyInstance, ids: string[]): Promise<TDeliveryMessage[]> {
  const messages = await loadDeliveries(app.deps.database.db, ids);
  return ids.flatMap((id) => messages.find((message) => message.id === id) ?? []);
}

/** POST /comm/{email,whatsapp}/send-report-pdf: share a final report's PDF, rate-limited per user. */
export const shareRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  await app.register(
    rateLimit,
    userRateLimitOptions({ name: 'share', ...SHARE_RATE_LIMIT, what: 'Too many reports shared' }),
  );

  async function share(
    request: FastifyRequest,
    input: {
      channel: TDeliveryChannel;
      studyId: string;
      recipients: string[];
      withLetterhead: boolean;
      byUserId: string;
    },
  ) {
    const scope = await loadScope(db, requirePrincipal(request));
    assertActingAs(scope.principal, input.byUserId);
    const header = request.headers['idempotency-key'];
    const ids = await db.transaction((tx) =>
      shareReport(tx, {
        scope,
        ...input,
        idempotencyKey: typeof header === 'string' && header.trim() ? header.trim() : undefined,
        providerConfigured: providerConfigured(app, input.channel),
      }),
    );
    return { messages: await presentInOrder(app, ids) };
  }

  app.post(
    '/comm/email/send-report-pdf',
    {
      schema: {
        tags,
        security,
        summary: "E-mail a final report's PDF to one or more addresses (202: queued)",
        description: SHARE_NOTE,
        headers: ZIdempotencyHeaders,
        body: ZSendReportEmailBody,
        response: { 202: ZSendReportResponse, ...ZShareResponses },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const result = await share(request, {
        channel: 'email',
        studyId: body.worklist_id,
        recipients: body.emails,
        withLetterhead: body.with_letterhead,
        byUserId: body.by_user_id,
      });
      return reply.status(202).send(result);
    },
  );

  app.post(
    '/comm/whatsapp/send-report-pdf',
    {
      schema: {
        tags,
        security,
        summary: "Send a final report's PDF by WhatsApp to one or more E.164 numbers (202: queued)",
        description: `${SHARE_NOTE} Numbers are E.164 ("+" and 8 to 15 digits).`,
        headers: ZIdempotencyHeaders,
        body: ZSendReportWhatsappBody,
        response: { 202: ZSendReportResponse, ...ZShareResponses },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const result = await share(request, {
        channel: 'whatsapp',
        studyId: body.worklist_id,
        recipients: body.mobile_numbers,
        withLetterhead: body.with_letterhead,
        byUserId: body.by_user_id,
      });
      return reply.status(202).send(result);
    },
  );
};
