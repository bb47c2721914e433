import { z } from 'zod';

/** Status of a report document; it moves CREATED → DRAFTED → COMPLETED in step with its study. */
export const REPORT_STATUSES = ['CREATED', 'DRAFTED', 'COMPLETED'] as const;
export type TReportStatus = (typeof REPORT_STATUSES)[number];
export const ZReportStatus = z.enum(REPORT_STATUSES);
