import type { TFacility } from '@ris/domain';
import { useId, type TextareaHTMLAttributes } from 'react';
import { cn } from '../../components/ui/cn.ts';
import { inputClassName } from '../../components/ui/text-field.tsx';

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  hint?: string;
  error?: string | undefined;
}

/** A labelled textarea with its hint and error wired through aria-describedby (like TextField). */
export function TextAreaField({ label, hint, error, className, ...textarea }: TextAreaFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-[13px] font-medium text-fg">
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        className={cn(inputClassName, 'h-auto resize-y py-2')}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...textarea}
      />
      {error ? (
        <p id={errorId} className="text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="text-xs text-fg-subtle">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export interface FacilityChecklistProps {
  /** The facilities the caller may assign. */
  facilities: readonly TFacility[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  /** One facility only (a facility administrator's): radio buttons instead of checkboxes. */
  single?: boolean;
  error?: string | undefined;
  disabled?: boolean;
}

/** The facilities of a user as a labelled group of checkboxes (or radios), each facility one choice. */
export function FacilityChecklist({
  facilities,
  selected,
  onChange,
  single = false,
  error,
  disabled = false,
}: FacilityChecklistProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <fieldset
      className="flex flex-col gap-1.5"
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="mb-1.5 text-[13px] font-medium text-fg">{single ? 'Facility' : 'Facilities'}</legend>
      {facilities.length === 0 ? (
        <p className="text-xs text-fg-subtle">No facility you may assign.</p>
      ) : (
        <div
          className={cn(
            'grid max-h-40 gap-0.5 overflow-y-auto rounded-md border bg-surface-raised p-1 sm:grid-cols-2',
            error ? 'border-danger' : 'border-line-strong',
          )}
        >
          {facilities.map((facility) => {
            const checked = selected.includes(facility.id);
            return (
              <label
                key={facility.id}
                className="flex min-w-0 cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-[13px] text-fg hover:bg-surface-hover"
              >
                <input
                  type={single ? 'radio' : 'checkbox'}
                  name={single ? id : undefined}
                  className="size-3.5 shrink-0 accent-(--color-accent)"
                  checked={checked}
                  disabled={disabled}
                  onChange={() =>
                    onChange(
                      single
                        ? [facility.id]
                        : checked
                          ? selected.filter((value) => value !== facility.id)
                          : [...selected, facility.id],
                    )
                  }
                />
                <span className="truncate">{facility.name}</span>
              </label>
            );
          })}
        </div>
      )}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
