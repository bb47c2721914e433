import type { TMacro } from '@ris/domain';
import { richTextToPlainText } from '../../components/rich-text/rich-text-content.ts';

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** The macros whose short key, display name or text contains `search` (case- and accent-insensitive). */
export function filterMacros(macros: readonly TMacro[], search: string): TMacro[] {
  const needle = fold(search.trim());
  if (!needle) return [...macros];
  return macros.filter((macro) =>
    [macro.short_key, macro.display_name ?? '', richTextToPlainText(macro.value)].some((text) =>
      fold(text).includes(needle),
    ),
  );
}

/** One page of an in-memory list, with the pagination fields the server's lists have. */
export function pageOf<T>(items: readonly T[], limit: number, offset: number) {
  const start = offset >= items.length ? Math.max(0, Math.floor((items.length - 1) / limit) * limit) : offset;
  return {
    items: items.slice(start, start + limit),
    total: items.length,
    limit,
    offset: start,
    next_offset: start + limit < items.length ? start + limit : null,
    previous_offset: start > 0 ? Math.max(0, start - limit) : null,
  };
}
