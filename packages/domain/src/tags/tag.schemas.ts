import { z } from 'zod';
import { ZTemplateScope } from '../common/enum.schemas.ts';
import { ZUuid } from '../common/uuid.ts';
import { ZRepeatedParam } from '../worklist/worklist.schemas.ts';

/** A tag as the API sends it; `type` is its scope (DEFAULT, ORGANISATION or USER). */
export const ZTag = z.object({
  id: ZUuid,
  name: z.string(),
  type: ZTemplateScope,
  colour: z.string().nullable(),
  organization_id: ZUuid.nullable(),
  by_user_fk: ZUuid.nullable(),
  created_at: z.iso.datetime({ offset: true }),
});
export type TTag = z.infer<typeof ZTag>;

/** GET /worklist/tag/all query. */
export const ZTagListQuery = z.object({
  search: z.string().trim().max(100).optional(),
  /** Whose USER tags to include (default: the caller; another user's: admins only). */
  user_id: ZUuid.optional(),
  /** Must be the caller's organisation when given. */
  organization_id: ZUuid.optional(),
  /** Which kinds to list (repeated key); default all. */
  types: ZRepeatedParam(ZTemplateScope),
});
export type TTagListQuery = z.infer<typeof ZTagListQuery>;

/** GET /worklist/tag/all: the organisation's and the user's tags, and the product's default tags. */
export const ZTagList = z.object({ tags: z.array(ZTag), default_tags: z.array(ZTag) });
export type TTagList = z.infer<typeof ZTagList>;

/** POST /worklist/tag. */
export const ZCreateTagBody = z.object({
  name: z.string().trim().min(1).max(60),
  /** USER (default) or ORGANISATION. */
  type: z.enum(['USER', 'ORGANISATION']).default('USER'),
  colour: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1a2b3c')
    .optional(),
  by_user_fk: ZUuid.optional(),
});
export type TCreateTagBody = z.infer<typeof ZCreateTagBody>;

/** A tag on one worklist item (its id is the one DELETE /worklist/worklist-tag/{id} takes). */
export const ZWorklistTag = z.object({
  id: ZUuid,
  worklist_id: ZUuid,
  tag: ZTag,
  user_fk: ZUuid,
  created_at: z.iso.datetime({ offset: true }),
});
export type TWorklistTag = z.infer<typeof ZWorklistTag>;

/** GET /worklist/worklist-tags/{user_id}. */
export const ZWorklistTagList = z.object({ items: z.array(ZWorklistTag) });
export type TWorklistTagList = z.infer<typeof ZWorklistTagList>;

/** POST /worklist/worklist-tag/many. */
export const ZTagStudiesBody = z.object({
  worklist_ids: z.array(ZUuid).min(1, 'worklist_ids must name at least one worklist item').max(500),
  tag_ids: z.array(ZUuid).min(1, 'tag_ids must name at least one tag').max(50),
  by_user_id: ZUuid.optional(),
});
export type TTagStudiesBody = z.infer<typeof ZTagStudiesBody>;
