import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';
import { ZRadiologistUserType } from '../users/role.schemas.ts';
import { ZRepeatedParam } from '../worklist/worklist.schemas.ts';

/** A radiologist who may be assigned studies (GET /radiologist/active). */
export const ZActiveRadiologist = z.object({
  id: ZUuid,
  display_name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  user_type: ZRadiologistUserType,
  /** The radiologist's facilities among those the caller works in. */
  facility_fks: z.array(ZUuid),
});
export type TActiveRadiologist = z.infer<typeof ZActiveRadiologist>;

/** GET /radiologist/active: the assignment picker. */
export const ZActiveRadiologistsQuery = z.object({
  /** Must be the caller's organisation when given. */
  organisation_id: ZUuid.optional(),
  search: z.string().trim().max(100).optional(),
  /** Only radiologists working for one of these (repeated key); default: the caller's facilities. */
  facility_ids: ZRepeatedParam(ZUuid),
});
export type TActiveRadiologistsQuery = z.input<typeof ZActiveRadiologistsQuery>;

export const ZActiveRadiologistList = z.array(ZActiveRadiologist);
