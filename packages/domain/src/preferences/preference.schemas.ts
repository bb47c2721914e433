// The zod schemas of the preference documents (spec §3 "User preference", §7 /user/preference*).
// Kept apart from ./preferences.ts (defaults and resolution) so a screen that needs only those loads
// no zod.
import { z } from 'zod';
import { MAX_PAGE_LIMIT } from '../api/pagination.ts';
import { TEMPLATE_SCOPES } from '../common/enums.ts';
import { ZUuid } from '../common/uuid.ts';
import { DATE_RANGE_TYPES } from '../dates/date-ranges.ts';
import { MODALITIES, ZModality } from '../studies/modalities.ts';
import { PRIORITY_TAGS, ZPriorityTag } from '../studies/priority-tags.ts';
import { STATUS_GROUPS, STUDY_STATUSES } from '../studies/statuses.ts';
import { VIEWERS } from '../studies/viewers.ts';
import { THEMES } from '../ui-constants.ts';
import { QUICK_ACTIONS, SORT_ORDERS, WORKLIST_COLUMNS } from '../worklist/columns.ts';
import { ZWorklistSortField } from '../worklist/worklist.schemas.ts';
import { MAX_DEFAULT_FACILITY_IDS, PREFERENCE_FIELDS, type TPreferenceField } from './preferences.ts';

/** An object that refuses keys it does not know, naming them (`"colour" is not a known field`). */
function closedObject<TShape extends z.ZodRawShape>(shape: TShape) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `${issue.keys.map((key) => JSON.stringify(key)).join(', ')} ${
            issue.keys.length === 1 ? 'is not a known field' : 'are not known fields'
          }`
        : undefined,
  });
}

const ZColumnSetting = closedObject({ id: z.enum(WORKLIST_COLUMNS), visible: z.boolean() });

/** Column visibility and order; each column at most once (missing ones are appended when resolved). */
const ZWorklistColumnSettings = z
  .array(ZColumnSetting)
  .max(WORKLIST_COLUMNS.length)
  .refine((columns) => new Set(columns.map((column) => column.id)).size === columns.length, {
    error: 'each column may be listed only once',
  });

const ZPageSize = z.number().int().min(1).max(MAX_PAGE_LIMIT);

const ZPageSizes = closedObject({ worklist: ZPageSize, reportFinder: ZPageSize });

/** A preset; CUSTOM needs dates, which belong to a session, not to a default. */
const ZDefaultDateRange = z.enum(DATE_RANGE_TYPES).exclude(['CUSTOM'], {
  error: 'must be a preset (CUSTOM dates are chosen on the worklist)',
});

/** The worklist filters a new session starts with (spec §3 worklist filters, less dates and search). */
const ZDefaultWorklistFilters = closedObject({
  /** The worklist's filter tab. */
  status_group: z.enum(STATUS_GROUPS),
  statuses: z.array(z.enum(STUDY_STATUSES)).max(STUDY_STATUSES.length),
  modalities: z.array(ZModality).max(MODALITIES.length),
  priority_tags: z.array(ZPriorityTag).max(PRIORITY_TAGS.length),
  facility_ids: z.array(ZUuid).max(MAX_DEFAULT_FACILITY_IDS),
  sort_by: ZWorklistSortField,
  sort_order: z.enum(SORT_ORDERS),
});

/**
 * A complete document's default filters: priority_tags came later, so a document written before it
 * reads as "no priority filter". Only here: in a patch an absent key must stay absent (inherited).
 */
const ZResolvedWorklistFilters = ZDefaultWorklistFilters.extend({
  priority_tags: ZDefaultWorklistFilters.shape.priority_tags.default([]),
});

/** What a person wants to be told, and how. */
const ZNotificationChoices = closedObject({
  /** The real-time report and collaboration toasts on the worklist (spec §4, transcriptionists). */
  status_toasts: z.boolean(),
});

/** A complete preference document: the DEFAULT scope, and every resolved document. */
export const ZPreferences = closedObject({
  worklist_columns: ZWorklistColumnSettings,
  quick_action: z.enum(QUICK_ACTIONS),
  default_viewer: z.enum(VIEWERS),
  page_sizes: ZPageSizes,
  theme: z.enum(THEMES),
  default_date_range: ZDefaultDateRange,
  default_worklist_filters: ZResolvedWorklistFilters,
  notifications: ZNotificationChoices,
});
export type TPreferences = z.infer<typeof ZPreferences>;

/**
 * A USER or ORGANISATION document: any field may be left out (it is then inherited), and the object
 * fields may set only some of their keys. Unknown fields are refused.
 */
export const ZPreferencesPatch = closedObject({
  worklist_columns: ZWorklistColumnSettings.optional(),
  quick_action: z.enum(QUICK_ACTIONS).optional(),
  default_viewer: z.enum(VIEWERS).optional(),
  page_sizes: ZPageSizes.partial().optional(),
  theme: z.enum(THEMES).optional(),
  default_date_range: ZDefaultDateRange.optional(),
  default_worklist_filters: ZDefaultWorklistFilters.partial().optional(),
  notifications: ZNotificationChoices.partial().optional(),
});
export type TPreferencesPatch = z.infer<typeof ZPreferencesPatch>;

const ZPreferenceScope = z.enum(TEMPLATE_SCOPES);

/** Which scope each resolved field came from (the highest that set any of it). */
export const ZPreferenceSources = z.object(
  Object.fromEntries(PREFERENCE_FIELDS.map((field) => [field, ZPreferenceScope])) as Record<
    TPreferenceField,
    typeof ZPreferenceScope
  >,
);

/** GET /user/preference/default. */
export const ZDefaultPreferences = z.object({
  scope: z.literal('DEFAULT'),
  preferences: ZPreferences,
});
export type TDefaultPreferences = z.infer<typeof ZDefaultPreferences>;

/**
 * GET and PUT /user/preference/{user}: the user's resolved preferences (user over organisation over
 * default), where each came from, and the user's and the organisation's own documents (a client
 * edits a copy of `user` and PUTs it back).
 */
export const ZUserPreferences = z.object({
  user_fk: ZUuid,
  organisation_fk: ZUuid,
  preferences: ZPreferences,
  sources: ZPreferenceSources,
  user: ZPreferencesPatch,
  organisation: ZPreferencesPatch,
  /** When the user's own document was last written; null when they have none. */
  updated_at: z.iso.datetime({ offset: true }).nullable(),
});
export type TUserPreferences = z.infer<typeof ZUserPreferences>;

/** PUT /user/preference/{user}: the user's whole USER-scope document (replaces the stored one). */
export const ZPutUserPreferencesBody = closedObject({ preferences: ZPreferencesPatch });
export type TPutUserPreferencesBody = z.infer<typeof ZPutUserPreferencesBody>;

export const ZUserPreferencesParams = z.object({ user: ZUuid });

/**
 * POST /user/preference: an admin writes the organisation's document (replacing it). The scope is
 * named so the call cannot be mistaken for a user's own write, which is PUT /user/preference/{user}.
 */
export const ZPostPreferencesBody = closedObject({
  scope: z.literal('ORGANISATION', {
    error: 'must be ORGANISATION (a user writes their own preferences with PUT /user/preference/{user})',
  }),
  preferences: ZPreferencesPatch,
});
export type TPostPreferencesBody = z.infer<typeof ZPostPreferencesBody>;

/** The answer of POST /user/preference: the organisation's document as stored. */
export const ZOrganisationPreferences = z.object({
  scope: z.literal('ORGANISATION'),
  organisation_fk: ZUuid,
  preferences: ZPreferencesPatch,
  updated_at: z.iso.datetime({ offset: true }),
});
export type TOrganisationPreferences = z.infer<typeof ZOrganisationPreferences>;

/**
 * A stored document read back: every field that still validates is kept, the rest dropped (a column
 * or viewer removed in a later release must not break anyone's sign-in). Never throws.
 */
export function repairPreferencesPatch(stored: unknown): TPreferencesPatch {
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {};
  const shape = ZPreferencesPatch.shape;
  const repaired: Record<string, unknown> = {};
  for (const field of PREFERENCE_FIELDS) {
    const value: unknown = (stored as Record<string, unknown>)[field];
    if (value === undefined) continue;
    const parsed = shape[field].safeParse(value);
    if (parsed.success) {
      repaired[field] = parsed.data;
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      // An object field keeps the keys that still validate.
      const keys = Object.entries(value).filter(
        ([key, item]) => shape[field].safeParse({ [key]: item }).success,
      );
      if (keys.length > 0) repaired[field] = Object.fromEntries(keys);
    }
  }
  return repaired as TPreferencesPatch;
}
