import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { cn } from './cn.ts';

export const inputClassName = cn(
  'h-9 w-full rounded-md border border-line-strong bg-surface-raised px-3 text-sm text-fg shadow-xs',
  'placeholder:text-fg-subtle transition-[border-color,box-shadow]',
  'focus-visible:border-accent focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-focus/40',
  'disabled:cursor-not-allowed disabled:opacity-60',
  'aria-invalid:border-danger',
);

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  /** Extra content on the label's line, right-aligned (e.g. a 'Forgot password?' link). */
  labelAside?: ReactNode;
  /** Help under the input (text or a short list, e.g. the password rules); stays visible with an error. */
  hint?: ReactNode;
  error?: string | undefined;
}

/** A labelled input: <label for>, hint and error wired through aria-describedby. */
export function TextField({ label, labelAside, hint, error, className, ...input }: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-[13px] font-medium text-fg">
          {label}
        </label>
        {labelAside}
      </div>
      <input
        id={id}
        className={inputClassName}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
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
