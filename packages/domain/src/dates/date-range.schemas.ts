// The zod schemas of ./date-ranges.ts, apart from its constants: a screen that needs only the constants (the
// sign-in page) loads no zod.
import { z } from 'zod';
import { DATE_RANGE_TYPES } from './date-ranges.ts';

export const ZDateRangeType = z.enum(DATE_RANGE_TYPES);
