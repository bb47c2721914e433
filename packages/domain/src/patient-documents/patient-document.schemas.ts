// Request fields of the patient documents of a worklist item (multipart forms; the files themselves
// come as `files` parts and are checked by content on the server).
import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';

/** One form field given once arrives as a string, given several times as a list: both become a list. */
const asList = (value: unknown) =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];

/** POST /worklist/{id}/document: documents added to the item. */
export const ZAddPatientDocumentsFields = z.object({ by_user_id: ZUuid.optional() });
export type TAddPatientDocumentsFields = z.infer<typeof ZAddPatientDocumentsFields>;

/** PATCH /worklist/{id}/document: the documents to keep, by file name (the others are removed). */
export const ZKeepPatientDocumentsFields = z.object({
  filenames: z.preprocess(asList, z.array(z.string().min(1).max(500)).max(200)),
  by_user_id: ZUuid.optional(),
});
export type TKeepPatientDocumentsFields = z.infer<typeof ZKeepPatientDocumentsFields>;
