import rateLimit from '@fastify/rate-limit';
import {
  MAX_SUPPORT_FILE_BYTES,
  MAX_SUPPORT_FILES,
  ZErrorBody,
  ZSupportFields,
  ZSupportResponse,
} from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { AppError } from '../../http/app-error.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { parseFields, readForm, registerMultipart } from '../../http/multipart.ts';
import { checkUploads } from '../../files/upload-checks.ts';
import { assertActingAs } from '../../access/acting-as.ts';
import { sendSupport, SUPPORT_UPLOAD_LIMITS } from './send-support.ts';

/** Support mails one user may send in the window. */
export const SUPPORT_RATE_LIMIT = { max: 5, timeWindowMs: 10 * 60_000 };

const megabytes = MAX_SUPPORT_FILE_BYTES / 1024 / 1024;

/** POST /comm/email/send-support (multipart), rate-limited per user. */
export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { blobs, config } = app.deps;
  await registerMultipart(app, SUPPORT_UPLOAD_LIMITS);
  // Only routes that ask for it (config.rateLimit) are limited; counted per signed-in user.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'TOO_MANY_REQUESTS',
        `Too many support requests. Please try again in ${Math.max(1, Math.ceil(context.ttl / 60_000))} minutes`,
        { retry_after_seconds: Math.max(1, Math.ceil(context.ttl / 1000)) },
      ),
  });

  app.post(
    '/comm/email/send-support',
    {
      config: {
        rateLimit: {
          max: SUPPORT_RATE_LIMIT.max,
          timeWindow: SUPPORT_RATE_LIMIT.timeWindowMs,
          hook: 'preHandler',
          keyGenerator: (request) => `support:${request.principal?.userId ?? request.ip}`,
        },
      },
      schema: {
        tags: ['communication'],
        security: [{ bearerAuth: [] }],
        consumes: ['multipart/form-data'],
        summary: 'Send a message to support (202: queued, or kept in the outbox without SMTP)',
        description: `Multipart fields user_id (must be the caller), user_name, email (reply-to), message; upload_files: up to ${MAX_SUPPORT_FILES} files, PNG, JPEG, PDF or WebP by content, at most ${megabytes} MB each. ${SUPPORT_RATE_LIMIT.max} requests per user per 10 minutes (429 beyond).`,
        response: {
          202: ZSupportResponse,
          ...ZErrorResponses,
          413: ZErrorBody.describe('upload_files: a file is too large, or too many files'),
          415: ZErrorBody.describe('upload_files: a file is not a PNG, JPEG, PDF or WebP'),
          429: ZErrorBody.describe('Too many support requests from this user'),
        },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request);
      const form = await readForm(request, SUPPORT_UPLOAD_LIMITS);
      const fields = parseFields(ZSupportFields, form.fields);
      assertActingAs(principal, fields.user_id, 'user_id');
      await checkUploads(form.files, SUPPORT_UPLOAD_LIMITS, { optional: true });
      const result = await db.transaction((tx) =>
        sendSupport(tx, blobs, {
          principal,
          fields,
          files: form.files,
          supportEmail: config.supportEmail,
          smtpConfigured: app.identity.mailer.kind === 'smtp',
        }),
      );
      return reply.status(202).send(result);
    },
  );
};
