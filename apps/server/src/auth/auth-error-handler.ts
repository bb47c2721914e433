import { LOGIN_ERROR_MESSAGES } from '@ris/domain';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../http/app-error.ts';
import { errorBody, errorHandler } from '../http/error-handler.ts';
import { authError } from './auth-errors.ts';

function retryAfterOf(error: AppError): number | null {
  const details = error.details;
  if (typeof details !== 'object' || details === null || !('retry_after_seconds' in details)) return null;
  return typeof details.retry_after_seconds === 'number' ? details.retry_after_seconds : null;
}

/**
 * The shared error handler plus two identity conventions: a malformed e-mail address answers 400
 * `auth/invalid-email` (still listing every failed field in details.fields, as VALIDATION_FAILED
 * does), and 429 `auth/too-many-requests` carries a Retry-After header.
 */
export function authErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof AppError && error.code === 'auth/too-many-requests') {
    const retryAfter = retryAfterOf(error);
    if (retryAfter !== null && !reply.hasHeader('retry-after'))
      reply.header('retry-after', String(retryAfter));
  }
  const body: unknown = request.body;
  const givenEmail =
    typeof body === 'object' && body !== null && 'email' in body && typeof body.email === 'string';
  if (givenEmail && hasZodFastifySchemaValidationErrors(error)) {
    const emailIssue = error.validation.some((issue) => issue.instancePath === '/email');
    if (emailIssue) {
      const fields = error.validation.map((issue) => ({
        field: issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body',
        in: error.validationContext ?? 'body',
        message: issue.message,
      }));
      const invalid = authError('auth/invalid-email', LOGIN_ERROR_MESSAGES['auth/invalid-email'], { fields });
      return reply
        .status(invalid.status)
        .type('application/json; charset=utf-8')
        .send(errorBody(invalid.code, invalid.message, invalid.details));
    }
  }
  return errorHandler(error, request, reply);
}
