import { z } from 'zod';
import { label } from '../text/label.ts';

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

/**
 * How a priority tag reads on screen: MLC (medico-legal case) is an abbreviation and stays one, the
 * others read as words ('POST_SURGICAL' → 'Post Surgical').
 */
export function priorityTagLabel(tag: TPriorityTag): string {
  return tag === 'MLC' ? 'MLC' : label(tag);
}
