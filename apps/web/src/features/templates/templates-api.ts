import {
  ZTemplate,
  ZTemplateListResponse,
  type TModality,
  type TTemplate,
  type TTemplateListQuery,
  type TTemplateListResponse,
  type TTemplateScope,
  type ZSaveTemplateBody,
} from '@ris/domain';
import type { z } from 'zod';
import { apiClient } from '../../api/client.ts';

/** Toast of a failed delete (the specification names no fallback for it). */
export const DELETE_TEMPLATE_FAILED = 'Failed to delete template';

/** What the client sends to POST /radiologist/template (defaults applied by the server). */
export type TSaveTemplateRequest = z.input<typeof ZSaveTemplateBody>;

/** Query of GET /radiologist/templates (ZTemplateListQuery) as the screens use it. */
export type TTemplateListParams = Pick<TTemplateListQuery, 'purpose' | 'limit' | 'offset'> & {
  search?: string;
  modality?: TModality;
  scopes?: readonly TTemplateScope[];
};

/** Query keys of templates, so a save or delete refreshes every list and the edited template. */
export const templateKeys = {
  all: ['templates'] as const,
  lists: () => ['templates', 'list'] as const,
  list: (params: TTemplateListParams) => ['templates', 'list', params] as const,
  item: (id: string) => ['templates', 'item', id] as const,
};

export const templatesApi = {
  list: (params: TTemplateListParams, signal?: AbortSignal): Promise<TTemplateListResponse> =>
    apiClient.get('/radiologist/templates', {
      query: {
        purpose: params.purpose,
        search: params.search?.trim() || undefined,
        modality: params.modality,
        scopes: params.scopes ?? [],
        limit: params.limit,
        offset: params.offset,
      },
      signal,
      parse: (data) => ZTemplateListResponse.parse(data),
    }),
  get: (id: string, signal?: AbortSignal): Promise<TTemplate> =>
    apiClient.get(`/radiologist/template/${encodeURIComponent(id)}`, {
      signal,
      parse: (data) => ZTemplate.parse(data),
    }),
  /** Creates a template, or updates the one named by `id`. */
  save: (body: TSaveTemplateRequest): Promise<TTemplate> =>
    apiClient.post('/radiologist/template', body, { parse: (data) => ZTemplate.parse(data) }),
  remove: (id: string): Promise<unknown> =>
    apiClient.delete(`/radiologist/template/${encodeURIComponent(id)}`),
};
