import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';
import { Spinner } from './spinner.tsx';

/** The first field a refused form marks invalid (a facility group: its first choice). */
export const FIRST_INVALID =
  'input[aria-invalid="true"], select[aria-invalid="true"], textarea[aria-invalid="true"], fieldset[aria-invalid="true"] input';

export interface FormDialogProps {
  title: string;
  description?: string;
  className?: string;
  /** While saving: the buttons are disabled and closing is refused. */
  pending: boolean;
  submitLabel: string;
  /** Counts refused submits: each one moves the focus to the first field in error. */
  refusals: number;
  onClose: () => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}

/** A dialog around one form, with Cancel and the submit button in its footer (the form's name is the title). */
export function FormDialog({
  title,
  description,
  className,
  pending,
  submitLabel,
  refusals,
  onClose,
  onSubmit,
  children,
}: FormDialogProps) {
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>(FIRST_INVALID)?.focus();
  }, [refusals]);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !pending && onClose()}
      title={title}
      {...(description !== undefined ? { description } : {})}
      {...(className !== undefined ? { className } : {})}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} disabled={pending}>
            {pending ? <Spinner /> : null}
            {submitLabel}
          </Button>
        </>
      }
    >
      <form
        ref={formRef}
        id={formId}
        aria-label={title}
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-4"
      >
        {children}
      </form>
    </Dialog>
  );
}
