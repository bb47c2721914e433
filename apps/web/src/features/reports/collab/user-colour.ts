/**
 * Colours that read well as a caret and behind white text in both themes. Hex on purpose: the caret
 * extension appends an alpha (`#rrggbb70`) for selections.
 */
const COLOURS = [
  '#c2410c',
  '#b91c1c',
  '#be185d',
  '#7e22ce',
  '#4338ca',
  '#1d4ed8',
  '#0369a1',
  '#0f766e',
  '#15803d',
  '#4d7c0f',
  '#a16207',
] as const;

/** A stable colour per user id (FNV-1a hash): the same person has the same caret colour everywhere. */
export function userColour(userId: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < userId.length; index += 1) {
    hash ^= userId.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return COLOURS[hash % COLOURS.length] ?? COLOURS[0];
}
