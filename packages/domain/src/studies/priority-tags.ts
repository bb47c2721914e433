import { z } from 'zod';

/** Priority or category tag of a study. */
export const PRIORITY_TAGS = [
  'MLC',
  'URGENT',
  'ROUTINE',
  'FOLLOW_UP',
  'POST_SURGICAL',
  'ONCO',
  'COMPLEX',
  'EMERGENCY',
  'COMPARATIVE',
] as const;
export type TPriorityTag = (typeof PRIORITY_TAGS)[number];
export const ZPriorityTag = z.enum(PRIORITY_TAGS);
