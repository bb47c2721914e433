/**
 * Display label of an enum value: underscores become spaces and each word is title-cased
 * ('TO_READ' → 'To Read', 'IN_REVIEW' → 'In Review'). Runs of underscores/spaces collapse to one space.
 */
export function label(value: string): string {
  return value
    .split(/[_\s]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join(' ');
}
