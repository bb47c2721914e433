import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';
import { ZRecordStatus, ZTemplateScope } from '../common/enum.schemas.ts';
import { ZPaginationQuery, paginatedSchema } from '../api/pagination.ts';
import { ZModality } from '../studies/modalities.ts';
import { ZRepeatedParam } from '../worklist/worklist.schemas.ts';
import { MAX_REPORT_CONTENT_LENGTH } from '../reports/report.schemas.ts';

/**
 * What the caller may do with a template: the server's template policy (templates.policy.ts
 * canTemplate, the actions of its typed union). `change` is editing and deleting it.
 */
export const ZTemplateAbilities = z
  .object({ change: z.boolean() })
  .describe("The caller's abilities on this template (computed by the server's template policy)");
export type TTemplateAbilities = z.infer<typeof ZTemplateAbilities>;

export const ZTemplate = z.object({
  id: ZUuid,
  name: z.string(),
  scope: ZTemplateScope,
  /** Modality group (USG, XRAY, CT, MRI, NM) or null for any. */
  modality: ZModality.nullable(),
  body_part: z.string().nullable(),
  /** Sanitised HTML inserted into the report. */
  content: z.string(),
  status: ZRecordStatus,
  organisation_id: ZUuid.nullable(),
  owner_user_id: ZUuid.nullable(),
  created_by: ZUuid.nullable(),
  created_by_display_name: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  abilities: ZTemplateAbilities,
});
export type TTemplate = z.infer<typeof ZTemplate>;

/**
 * Who a template list is for. `manage` (the templates screen): a non-admin sees only their own
 * templates (spec §6), an admin the organisation's and everyone's in it. `insert` (the picker in the
 * editor): the caller's own plus ORGANISATION and DEFAULT templates, active ones only.
 */
export const TEMPLATE_LIST_PURPOSES = ['manage', 'insert'] as const;

/** GET /radiologist/templates. */
export const ZTemplateListQuery = ZPaginationQuery.extend({
  purpose: z.enum(TEMPLATE_LIST_PURPOSES).default('manage'),
  /** Substring of the name or body part, case- and accent-insensitive. */
  search: z.string().trim().max(200).optional(),
  name: z.string().trim().max(200).optional(),
  modality: ZModality.optional(),
  body_part: z.string().trim().max(100).optional(),
  scopes: ZRepeatedParam(ZTemplateScope),
  organisation_id: ZUuid.optional(),
  by_user_ids: ZRepeatedParam(ZUuid),
});
export type TTemplateListQuery = z.infer<typeof ZTemplateListQuery>;

export const ZTemplateListResponse = paginatedSchema(ZTemplate);
export type TTemplateListResponse = z.infer<typeof ZTemplateListResponse>;

/**
 * POST /radiologist/template: creates, or updates when `id` is given. USER templates belong to the
 * caller; ORGANISATION templates need an admin; DEFAULT templates ship with the product (read-only).
 * scope, status, modality and body_part left out: USER, ACTIVE, null, null on create; unchanged on
 * update (so saving an ORGANISATION or INACTIVE template without them never turns it into another).
 * null clears modality or body_part.
 */
export const ZSaveTemplateBody = z.object({
  id: ZUuid.optional(),
  name: z.string().trim().min(1, 'Name is required').max(200),
  scope: z.enum(['USER', 'ORGANISATION']).optional(),
  modality: ZModality.nullable().optional(),
  body_part: z.string().trim().max(100).nullable().optional(),
  content: z.string().max(MAX_REPORT_CONTENT_LENGTH),
  status: ZRecordStatus.optional(),
  by_user_id: ZUuid.optional(),
});
export type TSaveTemplateBody = z.infer<typeof ZSaveTemplateBody>;
