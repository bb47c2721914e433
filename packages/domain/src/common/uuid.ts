import { z } from 'zod';

/** Record ids on the wire are RFC 9562 UUIDs (any version). */
export const ZUuid = z.uuid();
export type TUuid = z.infer<typeof ZUuid>;
