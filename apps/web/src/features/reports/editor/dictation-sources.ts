import type { TMacro } from '@ris/domain';
import type { QueryClient } from '@tanstack/react-query';
import { matchByName, type TDictationSources } from '../../dictation/editor/apply-segments.ts';
import { reportKeys, reportsApi } from '../reports-api.ts';

/** Finds a template the user may insert by its spoken name (the search first, then the first page). */
async function findTemplate(name: string): Promise<{ content: string } | null> {
  const searched = await reportsApi.templates(name, '');
  const found = matchByName(searched.items, name);
  if (found) return found;
  const all = await reportsApi.templates('', '');
  return matchByName(all.items, name);
}

/** What "insert template" and "insert macro" reach: the templates API and the user's loaded macros. */
export function dictationSources(queryClient: QueryClient, userId: string): TDictationSources {
  return {
    findTemplate,
    macros: () => queryClient.getQueryData<TMacro[]>(reportKeys.macros(userId)) ?? [],
  };
}
