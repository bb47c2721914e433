import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, ERROR_STATUS } from './app-error.ts';
import { appErrorFromDatabase, sqlState } from './database-errors.ts';

type TErrorBody = { error: { code: string; message: string; details?: unknown } };

export function errorBody(code: string, message: string, details?: unknown): TErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

function send(reply: FastifyReply, status: number, body: TErrorBody): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

/** Where a failed value sits, as the person reading the message would name it: `body.email` → `email`. */
function fieldName(instancePath: string, context: string): string {
  const field = instancePath.replace(/^\//, '').replaceAll('/', '.');
  return field || context;
}

/** Maps every error to `{ error: { code, message, details? } }`; never leaks internals on a 5xx. */
export function errorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof AppError) {
    if (error.status >= 500) request.log.error({ err: error }, error.message);
    return send(reply, error.status, errorBody(error.code, error.message, error.details));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields = error.validation.map((issue) => ({
      field: fieldName(issue.instancePath, error.validationContext ?? 'request'),
      in: error.validationContext ?? 'body',
      message: issue.message,
    }));
    const message = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
    return send(reply, 400, errorBody('VALIDATION_FAILED', `Invalid request. ${message}`, { fields }));
  }
  const fromDatabase = appErrorFromDatabase(error);
  if (fromDatabase) {
    request.log.warn({ sqlstate: sqlState(error) }, fromDatabase.message);
    return send(reply, fromDatabase.status, errorBody(fromDatabase.code, fromDatabase.message));
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, cause: error.cause }, 'response did not match its schema');
    return send(reply, 500, errorBody('INTERNAL', 'Something went wrong on our side. Please try again.'));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return send(reply, 413, errorBody('PAYLOAD_TOO_LARGE', 'The request body is too large.'));
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return send(reply, 415, errorBody('UNSUPPORTED_MEDIA_TYPE', 'This content type is not accepted here.'));
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return send(reply, 400, errorBody('INVALID_JSON', 'The request body is empty but JSON was declared.'));
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return send(reply, 400, errorBody('INVALID_JSON', 'The request body is not valid JSON.'));
    default:
      break;
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return send(reply, 400, errorBody('INVALID_JSON', 'The request body is not valid JSON.'));
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // The API's code for the status (403 FORBIDDEN, 404 NOT_FOUND …), BAD_REQUEST for any other.
    const code = Object.entries(ERROR_STATUS).find(([, known]) => known === status)?.[0] ?? 'BAD_REQUEST';
    return send(reply, status, errorBody(code, error.message));
  }
  request.log.error({ err: error }, 'unhandled error');
  return send(reply, 500, errorBody('INTERNAL', 'Something went wrong on our side. Please try again.'));
}

/**
 * The error handler, and the 503 of requests that arrive while the server closes (in the error
 * shape; Fastify's own return503OnClosing is turned off, http/framework-errors.ts).
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(errorHandler);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    throw new AppError('SERVICE_UNAVAILABLE', 'The server is restarting. Please try again in a moment.');
  });
}
