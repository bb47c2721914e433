import { ZErrorBody } from '@ris/domain';

/** The error responses every secured route may give, for the OpenAPI document. */
export const ZErrorResponses = {
  400: ZErrorBody.describe('Invalid input; the message names each field'),
  401: ZErrorBody.describe('Not signed in, or the token expired or was revoked'),
  403: ZErrorBody.describe('Signed in but not allowed'),
  404: ZErrorBody.describe('Not found, or outside what the caller may see'),
} as const;

/** The answers of a route that renders a document (PDF/DOCX) in the render pool. */
export const ZRenderErrorResponses = {
  422: ZErrorBody.describe(
    'DOCUMENT_TOO_COMPLEX: the document could not be rendered within its time or memory budget (RENDER_TIMEOUT_MS, RENDER_MEMORY_MB)',
  ),
  503: ZErrorBody.describe('RENDER_BUSY: too many documents are being rendered; try again shortly'),
};
