// The zod schemas of ./ui-constants.ts, apart from its constants: a screen that needs only the constants (the
// sign-in page) loads no zod.
import { z } from 'zod';
import { THEMES, TOAST_KINDS } from './ui-constants.ts';

export const ZToastKind = z.enum(TOAST_KINDS);

export const ZTheme = z.enum(THEMES);
