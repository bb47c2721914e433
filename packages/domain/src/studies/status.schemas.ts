// The zod schemas of ./statuses.ts, apart from its constants: a screen that needs only the constants (the
// sign-in page) loads no zod.
import { z } from 'zod';
import { STATUS_GROUPS, STUDY_STATUSES } from './statuses.ts';

export const ZStudyStatus = z.enum(STUDY_STATUSES);

export const ZStatusGroup = z.enum(STATUS_GROUPS);
