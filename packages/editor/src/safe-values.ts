// Coercions for node attributes. Attributes reach the document from anyone who can edit it (HTML,
// JSON, or a collaborator's Yjs update, which bypasses every parse rule), so what the schema renders
// is coerced here first: nothing but a known keyword or a bounded integer reaches an attribute, a
// style or a URL.

/** An integer in [min, max], or null for anything else (numbers or digit strings only). */
export function boundedInteger(value: unknown, min: number, max: number): number | null {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^-?\d{1,9}$/.test(value.trim())
        ? Number(value)
        : NaN;
  return Number.isInteger(number) && number >= min && number <= max ? number : null;
}

/** The value when it is one of `known`, null otherwise. */
export function knownValue<T extends string>(value: unknown, known: readonly T[]): T | null {
  return typeof value === 'string' && (known as readonly string[]).includes(value) ? (value as T) : null;
}

/** A non-empty string (text shown as an attribute value, e.g. alt), null otherwise. */
export function plainText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
