import { ZErrorBody } from '@ris/domain';

/** The error responses every secured route may give, for the OpenAPI document. */
export const ZErrorResponses = {
  400: ZErrorBody.describe('Invalid input; the message names each field'),
  401: ZErrorBody.describe('Not signed in, or the token expired or was revoked'),
  403: ZErrorBody.describe('Signed in but not allowed'),
  404: ZErrorBody.describe('Not found, or outside what the caller may see'),
} as const;
