import {
  ZInviteReferringPhysicianResult,
  ZReferringPhysician,
  ZReferringPhysicianList,
  type TInviteReferringPhysicianResult,
  type TReferringPhysician,
  type TReferringPhysicianList,
  type TSaveReferringPhysicianBody,
} from '@ris/domain';
import { apiClient } from '../../api/client.ts';

const enc = encodeURIComponent;

/** The page size of the Referring physicians screen. */
export const PHYSICIANS_PAGE_SIZE = 10;

export const FETCH_PHYSICIANS_FAILED = 'Failed to fetch referring physicians';
export const SAVE_PHYSICIAN_FAILED = 'Failed to save referring physician';
export const INVITE_PHYSICIAN_FAILED = 'Failed to invite referring physician';

export type TPhysicianStatusFilter = 'ACTIVE' | 'INACTIVE' | 'ALL';

export type TPhysicianFilters = {
  search: string;
  facilityIds: readonly string[];
  status: TPhysicianStatusFilter;
  offset: number;
  limit: number;
};

/** Query keys of the screen (everything under 'referring-physicians' is refetched after a change). */
export const physicianKeys = {
  all: ['referring-physicians'] as const,
  list: (filters: TPhysicianFilters) => ['referring-physicians', 'list', filters] as const,
};

export const referringPhysiciansApi = {
  /** GET /user/referring-physicians (search, facility_fks, status, limit, offset). */
  list: (filters: TPhysicianFilters, signal?: AbortSignal): Promise<TReferringPhysicianList> =>
    apiClient.get('/user/referring-physicians', {
      query: {
        search: filters.search.trim() || undefined,
        facility_fks: [...filters.facilityIds],
        status: filters.status,
        limit: filters.limit,
        offset: filters.offset,
      },
      signal,
      parse: (data) => ZReferringPhysicianList.parse(data),
    }),
  /** POST /user/referring-physician: creates one, or changes the one named by `id`. */
  save: (body: TSaveReferringPhysicianBody): Promise<TReferringPhysician> =>
    apiClient.post('/user/referring-physician', body, { parse: (data) => ZReferringPhysician.parse(data) }),
  /** POST /user/referring-physician/{id}/invitation: an account and a one-time link to set a password. */
  invite: (id: string): Promise<TInviteReferringPhysicianResult> =>
    apiClient.post(
      `/user/referring-physician/${enc(id)}/invitation`,
      {},
      { parse: (data) => ZInviteReferringPhysicianResult.parse(data) },
    ),
};
