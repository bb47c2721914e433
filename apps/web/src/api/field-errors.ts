import { isApiError, validationFieldErrors, type FieldErrors } from './api-error.ts';

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The inline errors of a failed save: every field of a 400 VALIDATION_FAILED (`details.fields`), or
 * the one field a 4xx names in `details.field` (a duplicate short key, an organisation scope the
 * caller may not use), its message without the leading 'field: '. Empty when no field is named.
 */
export function apiFieldErrors(error: unknown): FieldErrors {
  const fields = validationFieldErrors(error);
  if (Object.keys(fields).length > 0) return fields;
  if (!isApiError(error)) return {};
  const details: unknown = error.details;
  if (typeof details !== 'object' || details === null || !('field' in details)) return {};
  const field = details.field;
  if (typeof field !== 'string' || field === '') return {};
  const message = error.serverMessage ?? error.message;
  const prefix = `${field}: `;
  return { [field]: capitalise(message.startsWith(prefix) ? message.slice(prefix.length) : message) };
}

/** Only the errors of the fields a form shows; the rest are reported another way (a toast). */
export function pickFieldErrors<TField extends string>(
  errors: FieldErrors,
  shown: readonly TField[],
): Partial<Record<TField, string>> {
  const result: Partial<Record<TField, string>> = {};
  for (const field of shown) {
    const message = errors[field];
    if (message) result[field] = message;
  }
  return result;
}
