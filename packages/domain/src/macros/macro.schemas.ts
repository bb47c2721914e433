import { z } from 'zod';
import { ZUuid } from '../common/uuid.ts';

/** Longest macro short key. */
export const MAX_MACRO_SHORT_KEY_LENGTH = 32;
/** Longest macro value (HTML characters). */
export const MAX_MACRO_VALUE_LENGTH = 20_000;

/** A short key: letters and digits only; unique per user, case-insensitively. */
export const ZMacroShortKey = z
  .string()
  .trim()
  .min(1, 'Short key is required')
  .max(MAX_MACRO_SHORT_KEY_LENGTH)
  .regex(/^[A-Za-z0-9]+$/, 'Short key may contain letters and digits only');

/**
 * What the caller may do with a macro: the server's macro policy (macros.policy.ts canMacro, the
 * actions of its typed union). `change` is editing and deleting it.
 */
export const ZMacroAbilities = z
  .object({ change: z.boolean() })
  .describe("The caller's abilities on this macro (computed by the server's macro policy)");
export type TMacroAbilities = z.infer<typeof ZMacroAbilities>;

export const ZMacro = z.object({
  id: ZUuid,
  short_key: z.string(),
  /** Sanitised HTML inserted in place of the short key. */
  value: z.string(),
  user_fk: ZUuid,
  display_name: z.string().nullable(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  abilities: ZMacroAbilities,
});
export type TMacro = z.infer<typeof ZMacro>;

/** GET /radiologist/macros/{user_id}: all of one user's macros, by short key (the editor needs them all). */
export const ZMacroList = z.object({ items: z.array(ZMacro) });
export type TMacroList = z.infer<typeof ZMacroList>;

const ZMacroValue = z
  .string()
  .max(MAX_MACRO_VALUE_LENGTH)
  .refine((v) => v.trim().length > 0, 'Value is required');

/** POST /radiologist/macro (409 when the user already has the short key). */
export const ZCreateMacroBody = z.object({
  short_key: ZMacroShortKey,
  value: ZMacroValue,
  user_fk: ZUuid,
  display_name: z.string().trim().max(200).nullable().optional(),
});
export type TCreateMacroBody = z.infer<typeof ZCreateMacroBody>;

/** PATCH /radiologist/macro/{id}. */
export const ZUpdateMacroBody = z
  .object({
    short_key: ZMacroShortKey,
    value: ZMacroValue,
    display_name: z.string().trim().max(200).nullable(),
  })
  .partial();
export type TUpdateMacroBody = z.infer<typeof ZUpdateMacroBody>;

/**
 * The macro whose short key ends the text before the caret (case-insensitive), if any: the editor
 * expands it when Space or Tab follows. `textBefore` is the current text block up to the caret.
 */
export function macroBeforeCaret<TMacroLike extends { short_key: string }>(
  textBefore: string,
  macros: readonly TMacroLike[],
): { macro: TMacroLike; length: number } | null {
  const match = /(?:^|[^A-Za-z0-9])([A-Za-z0-9]+)$/.exec(textBefore);
  const word = match?.[1];
  if (!word) return null;
  const lower = word.toLowerCase();
  const macro = macros.find((m) => m.short_key.toLowerCase() === lower);
  return macro ? { macro, length: word.length } : null;
}
