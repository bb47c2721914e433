import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { apiFieldErrors, pickFieldErrors } from '../../api/field-errors.ts';
import { notify } from '../../stores/app-store.ts';

export type TFieldErrors<TField extends string> = Partial<Record<TField, string>>;

/**
 * The state of a form in a dialog: its draft, the message of each field in error, and a count of
 * refused submits (FormDialog moves the focus to the first field in error on each). `refuse` takes
 * the fields a check found (true when there were none); `refusedByServer` shows the server's
 * refusal on the fields it names, or as a toast when it names none.
 */
export function useFormDraft<TDraft extends object, TField extends string>(
  initial: () => TDraft,
  fields: readonly TField[],
) {
  const [draft, setDraft] = useState<TDraft>(initial);
  const [errors, setErrors] = useState<TFieldErrors<TField>>({});
  const [refusals, setRefusals] = useState(0);

  /** A setter of one draft field, which also clears that field's message. */
  const set =
    <K extends keyof TDraft>(key: K) =>
    (value: TDraft[K]) => {
      setDraft((current) => ({ ...current, [key]: value }));
      setErrors((current) => ({ ...current, [key]: undefined }));
    };

  const refuse = (found: TFieldErrors<TField>): boolean => {
    setErrors(found);
    if (Object.keys(found).length === 0) return true;
    setRefusals((count) => count + 1);
    return false;
  };

  const refusedByServer = (error: unknown, fallback: string): void => {
    const named = pickFieldErrors(apiFieldErrors(error), fields);
    setErrors(named);
    if (Object.keys(named).length === 0) notify('error', errorMessage(error, fallback));
    else setRefusals((count) => count + 1);
  };

  return { draft, setDraft, errors, setErrors, refusals, set, refuse, refusedByServer };
}
