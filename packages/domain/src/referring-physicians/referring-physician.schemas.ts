import { z } from 'zod';
import { ZRecordStatus } from '../common/enums.ts';
import { ZUuid } from '../common/uuid.ts';

/** A referring physician of the organisation (the order dialog's picker). */
export const ZReferringPhysician = z.object({
  id: ZUuid,
  organisation_fk: ZUuid,
  user_fk: ZUuid.nullable(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  registration_number: z.string().nullable(),
  status: ZRecordStatus,
  created_at: z.iso.datetime({ offset: true }),
});
export type TReferringPhysician = z.infer<typeof ZReferringPhysician>;

/** GET /user/referring-physicians. */
export const ZReferringPhysicianListQuery = z.object({
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export type TReferringPhysicianListQuery = z.input<typeof ZReferringPhysicianListQuery>;

export const ZReferringPhysicianList = z.object({ items: z.array(ZReferringPhysician) });
export type TReferringPhysicianList = z.infer<typeof ZReferringPhysicianList>;

/** POST /user/referring-physician (the same name may exist twice: nothing is deduplicated). */
export const ZCreateReferringPhysicianBody = z.object({
  name: z.string().trim().min(1).max(200),
  email: z.email().max(254).optional(),
  phone: z.string().trim().min(3).max(40).optional(),
  registration_number: z.string().trim().min(1).max(64).optional(),
});
export type TCreateReferringPhysicianBody = z.input<typeof ZCreateReferringPhysicianBody>;

/** The standard error body plus `detail` (the message), which these routes' clients read. */
export const ZErrorWithDetail = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
  detail: z.string(),
});
