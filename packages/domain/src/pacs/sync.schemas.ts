// GET /worklist/populate/worklist (§7): pull studies from the organisation's archives now.
import { z } from 'zod';

export const ZPopulateQuery = z.object({
  /** One archive only (default: every enabled archive the caller may sync). */
  archive_id: z.uuid({ error: 'archive_id: must be an archive id' }).optional(),
});
export type TPopulateQuery = z.infer<typeof ZPopulateQuery>;

export const ZArchiveSyncOutcome = z.object({
  id: z.string(),
  name: z.string(),
  ok: z.boolean(),
  /** Why the archive could not be read (unreachable, refused credentials, time-out), else null. */
  error: z.string().nullable(),
  added: z.number().int(),
  updated: z.number().int(),
  deleted: z.number().int(),
});
export type TArchiveSyncOutcome = z.infer<typeof ZArchiveSyncOutcome>;

export const ZPopulateResult = z.object({
  /** New worklist items, including ORDERED orders activated by their accession. */
  added: z.number().int(),
  /** Items whose series or instance counts (or details) changed. */
  updated: z.number().int(),
  /** Items whose study the archive no longer has (marked, never dropped). */
  deleted: z.number().int(),
  archives: z.array(ZArchiveSyncOutcome),
});
export type TPopulateResult = z.infer<typeof ZPopulateResult>;
