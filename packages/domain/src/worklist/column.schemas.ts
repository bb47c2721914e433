// The zod schemas of ./columns.ts, apart from its constants: a screen that needs only the constants (the
// sign-in page) loads no zod.
import { z } from 'zod';
import { QUICK_ACTIONS, SORT_ORDERS, WORKLIST_COLUMNS } from './columns.ts';

export const ZWorklistColumn = z.enum(WORKLIST_COLUMNS);

export const ZQuickAction = z.enum(QUICK_ACTIONS);

export const ZSortOrder = z.enum(SORT_ORDERS);
