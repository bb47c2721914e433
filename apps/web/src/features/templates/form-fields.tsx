import { Save, Trash2 } from 'lucide-react';
import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../components/ui/cn.ts';
import { selectClassName } from '../../components/ui/select.tsx';

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

/** A labelled native select with its error and hint wired through aria-describedby (like TextField). */
export function SelectField({ label, error, hint, className, children, ...select }: SelectFieldProps) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-[13px] font-medium text-fg">
        {label}
      </label>
      <select
        id={id}
        className={cn(selectClassName, 'h-9 w-full text-sm aria-invalid:border-danger')}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...select}
      >
        {children}
      </select>
      {error ? (
        <p id={errorId} className="text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
      {hint ? (
        <div id={hintId} className="text-xs text-fg-subtle">
          {hint}
        </div>
      ) : null}
    </div>
  );
}

/** A label, the rich-text editor given as children, and the field's error under it. */
export function ContentField({
  label,
  labelId,
  errorId,
  error,
  children,
}: {
  label: string;
  labelId: string;
  errorId: string;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1.5">
      <span id={labelId} className="text-[13px] font-medium text-fg">
        {label}
      </span>
      {children}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Field → first message of a zod safeParse failure (for checks made before sending). */
export function zodFieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]) {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

export interface FormFooterProps {
  /** Shows Delete (an existing record). */
  onDelete?: () => void;
  cancelTo: string;
  busy: boolean;
  saving: boolean;
  submitLabel: string;
}

/** Delete on the left; Cancel and the submit button on the right (template and macro editors). */
export function FormFooter({ onDelete, cancelTo, busy, saving, submitLabel }: FormFooterProps) {
  return (
    <div className="flex items-center justify-between gap-3">
      <div>
        {onDelete ? (
          <Button variant="secondary" onClick={onDelete} disabled={busy}>
            <Trash2 aria-hidden="true" className="size-4" />
            Delete
          </Button>
        ) : null}
      </div>
      <div className="flex gap-2">
        <Button variant="secondary" asChild>
          <Link to={cancelTo}>Cancel</Link>
        </Button>
        <Button type="submit" disabled={busy}>
          {saving ? <Spinner /> : <Save aria-hidden="true" className="size-4" />}
          {submitLabel}
        </Button>
      </div>
    </div>
  );
}
