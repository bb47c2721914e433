// The zod schemas of ./enums.ts, apart from its constants: a screen that needs only the constants (the
// sign-in page) loads no zod.
import { z } from 'zod';
import { RECORD_STATUSES, REQUEST_STATUSES, SCOPES, TEMPLATE_SCOPES } from './enums.ts';

export const ZRecordStatus = z.enum(RECORD_STATUSES);

export const ZScope = z.enum(SCOPES);

export const ZTemplateScope = z.enum(TEMPLATE_SCOPES);

export const ZRequestStatus = z.enum(REQUEST_STATUSES);
