import {
  ZBulkResult,
  ZWorklistItem,
  ZWorklistListResponse,
  ZWorklistStatusCounts,
  type TActiveRadiologist,
  type TAssignPriorityBody,
  type TAssignRadiologistBody,
  type TBulkBody,
  type TBulkResult,
  type TPriorityTag,
  type TTag,
  type TWorklistItem,
  type TWorklistListResponse,
  type TWorklistStatusCounts,
  type TWorklistTag,
} from '@ris/domain';
import { apiClient } from '../../api/client.ts';
import type { QueryParams } from '../../api/query-string.ts';

export { worklistKeys } from '../../api/worklist-keys.ts';

/** A radiologist the picker offers (GET /radiologist/active), by the name to show. */
export type TRadiologistOption = Pick<TActiveRadiologist, 'id'> & { name: string };

/** What the screens show of a tag (ZTag); `colour` is '#rrggbb', or null for the default look. */
export type TTagOption = Pick<TTag, 'id' | 'name' | 'colour'>;

/** A tag on one worklist item (ZWorklistTag; its id is the one DELETE /worklist/worklist-tag/{id} takes). */
export type TItemTag = Pick<TWorklistTag, 'id' | 'worklist_id'> & { tag: TTagOption };

const parseBulkResult = (data: unknown): TBulkResult => ZBulkResult.parse(data);

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function listOf(data: unknown, ...keys: string[]): unknown[] {
  if (Array.isArray(data)) return data;
  const body = record(data);
  return keys.flatMap((key) => (Array.isArray(body[key]) ? (body[key] as unknown[]) : []));
}

/** A person's name as the API sends users: display_name, else first and last name, else e-mail. */
function personName(entry: Record<string, unknown>): string {
  const display = typeof entry.display_name === 'string' ? entry.display_name.trim() : '';
  if (display) return display;
  const full = [entry.first_name, entry.last_name]
    .filter((part) => typeof part === 'string' && part)
    .join(' ');
  if (full) return full;
  return typeof entry.email === 'string' ? entry.email : String(entry.id ?? '');
}

/** GET /radiologist/active: radiologists that may be assigned (each entry's user id and name). */
export function parseRadiologists(data: unknown): TRadiologistOption[] {
  return listOf(data, 'items', 'radiologists')
    .map(record)
    .map((entry) => ({ id: String(entry.user_fk ?? entry.id ?? ''), name: personName(entry) }))
    .filter((option) => option.id !== '');
}

/** One tag as the API sends it (POST /worklist/tag answers one). */
export function parseTag(data: unknown): TTagOption {
  const entry = record(data);
  const colour =
    typeof entry.colour === 'string' && /^#[0-9a-f]{6}$/i.test(entry.colour) ? entry.colour : null;
  return { id: String(entry.id ?? ''), name: String(entry.name ?? entry.label ?? entry.id ?? ''), colour };
}

/** GET /worklist/tag/all: `{ tags, default_tags }` (spec §3), or a plain list. */
export function parseTags(data: unknown): TTagOption[] {
  const seen = new Set<string>();
  return listOf(data, 'tags', 'default_tags', 'items')
    .map(parseTag)
    .filter((tag) => tag.id !== '' && !seen.has(tag.id) && Boolean(seen.add(tag.id)));
}

/** GET /worklist/worklist-tags/{user id}: `{ items: [{ id, worklist_id, tag }] }`. */
export function parseItemTags(data: unknown): TItemTag[] {
  return listOf(data, 'items')
    .map(record)
    .map((entry) => ({
      id: String(entry.id ?? ''),
      worklist_id: String(entry.worklist_id ?? ''),
      tag: parseTag(entry.tag),
    }))
    .filter((entry) => entry.id !== '' && entry.worklist_id !== '' && entry.tag.id !== '');
}

export const worklistApi = {
  list: (params: QueryParams, signal?: AbortSignal): Promise<TWorklistListResponse> =>
    apiClient.get('/worklist', { query: params, signal, parse: (data) => ZWorklistListResponse.parse(data) }),
  counts: (params: QueryParams, signal?: AbortSignal): Promise<TWorklistStatusCounts> =>
    apiClient.get('/worklist/status/count', {
      query: params,
      signal,
      parse: (data) => ZWorklistStatusCounts.parse(data),
    }),
  item: (id: string, signal?: AbortSignal): Promise<TWorklistItem> =>
    apiClient.get(`/worklist/${encodeURIComponent(id)}`, {
      signal,
      parse: (data) => ZWorklistItem.parse(data),
    }),
  assignRadiologist: (worklistIds: string[], radiologistId: string): Promise<TBulkResult> =>
    apiClient.put(
      '/worklist/assign/radiologist',
      { worklist_ids: worklistIds, last_assigned_user_fk: radiologistId } satisfies TAssignRadiologistBody,
      { parse: parseBulkResult },
    ),
  unassignRadiologist: (worklistIds: string[]): Promise<TBulkResult> =>
    apiClient.put('/worklist/unassign/radiologist', { worklist_ids: worklistIds } satisfies TBulkBody, {
      parse: parseBulkResult,
    }),
  assignPriority: (worklistIds: string[], priorityTag: TPriorityTag): Promise<TBulkResult> =>
    apiClient.put(
      '/worklist/assign/priority-tag',
      { worklist_ids: worklistIds, priority_tag: priorityTag } satisfies TAssignPriorityBody,
      { parse: parseBulkResult },
    ),
  unassignPriority: (worklistIds: string[]): Promise<TBulkResult> =>
    apiClient.put('/worklist/unassign/priority-tag', { worklist_ids: worklistIds } satisfies TBulkBody, {
      parse: parseBulkResult,
    }),
  remove: (id: string): Promise<unknown> => apiClient.delete(`/worklist/${encodeURIComponent(id)}`),
  radiologists: (search: string, facilityIds: readonly string[], signal?: AbortSignal) =>
    apiClient.get('/radiologist/active', {
      query: { search: search.trim() || undefined, facility_ids: facilityIds },
      signal,
      parse: parseRadiologists,
    }),
  tags: (signal?: AbortSignal) => apiClient.get('/worklist/tag/all', { signal, parse: parseTags }),
  addTags: (worklistIds: string[], tagIds: string[]): Promise<unknown> =>
    apiClient.post('/worklist/worklist-tag/many', { worklist_ids: worklistIds, tag_ids: tagIds }),
  /** POST /worklist/tag: a new USER tag of the signed-in user. */
  createTag: (name: string, byUserId: string): Promise<TTagOption> =>
    apiClient.post('/worklist/tag', { name: name.trim(), by_user_fk: byUserId }, { parse: parseTag }),
  itemTags: (userId: string, signal?: AbortSignal): Promise<TItemTag[]> =>
    apiClient.get(`/worklist/worklist-tags/${encodeURIComponent(userId)}`, { signal, parse: parseItemTags }),
  removeItemTag: (id: string): Promise<unknown> =>
    apiClient.delete(`/worklist/worklist-tag/${encodeURIComponent(id)}`),
};
