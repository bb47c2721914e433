import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';

/** What a DELETE of one record answers (templates, macros, worklist tags). */
export const ZDeletedResponse = z.object({ id: ZUuid, deleted: z.literal(true) });
export type TDeletedResponse = z.infer<typeof ZDeletedResponse>;
