import { ZMacro, ZMacroList, type TCreateMacroBody, type TMacro, type TUpdateMacroBody } from '@ris/domain';
import { apiClient } from '../../api/client.ts';

/** Toast of a failed delete (the specification names no fallback for it). */
export const DELETE_MACRO_FAILED = 'Failed to delete macro';

/** Query keys of macros: one list per user (the report editor expands the signed-in user's). */
export const macroKeys = {
  all: ['macros'] as const,
  list: (userId: string) => ['macros', 'list', userId] as const,
};

export const macrosApi = {
  /** GET /radiologist/macros/{user id}: every macro of the user, by short key. */
  list: (userId: string, signal?: AbortSignal): Promise<TMacro[]> =>
    apiClient.get(`/radiologist/macros/${encodeURIComponent(userId)}`, {
      signal,
      parse: (data) => ZMacroList.parse(data).items,
    }),
  create: (body: TCreateMacroBody): Promise<TMacro> =>
    apiClient.post('/radiologist/macro', body, { parse: (data) => ZMacro.parse(data) }),
  update: (id: string, body: TUpdateMacroBody): Promise<TMacro> =>
    apiClient.patch(`/radiologist/macro/${encodeURIComponent(id)}`, body, {
      parse: (data) => ZMacro.parse(data),
    }),
  remove: (id: string): Promise<unknown> => apiClient.delete(`/radiologist/macro/${encodeURIComponent(id)}`),
};
