import { useMutation } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { notify } from '../../stores/app-store.ts';
import { usePasswordPolicy } from '../auth/auth-queries.ts';
import {
  FIELD_MESSAGES,
  compactErrors,
  formText,
  newPasswordError,
  type Errors,
} from '../auth/form-checks.ts';
import { NewPasswordField } from '../auth/new-password-field.tsx';
import { apiFieldErrors, pickFieldErrors } from '../../api/field-errors.ts';
import { CHANGE_PASSWORD_FAILED, profileApi } from './profile-api.ts';

type TPasswordField = 'current_password' | 'new_password' | 'confirm_password';
const SERVER_FIELDS = ['current_password', 'new_password'] as const;

/** Change one's own password: the current one, the new one twice (POST /auth/password). */
export function PasswordForm({ email }: { email: string }) {
  const policy = usePasswordPolicy();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Errors<TPasswordField>>({});
  const change = useMutation({
    mutationFn: profileApi.changePassword,
    onSuccess: (response) => {
      formRef.current?.reset();
      setErrors({});
      notify('success', response.message);
    },
    onError: (error) => {
      const fields = pickFieldErrors(apiFieldErrors(error), SERVER_FIELDS);
      setErrors(fields);
      if (Object.keys(fields).length === 0) notify('error', errorMessage(error, CHANGE_PASSWORD_FAILED));
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const current = formText(form, 'current_password');
    const next = formText(form, 'new_password');
    const found = compactErrors<TPasswordField>({
      current_password: current === '' ? 'Enter your current password' : undefined,
      new_password: newPasswordError(next, policy),
      confirm_password:
        formText(form, 'confirm_password') === next ? undefined : FIELD_MESSAGES.passwordsDiffer,
    });
    setErrors(found);
    if (Object.keys(found).length === 0) change.mutate({ current_password: current, new_password: next });
  };
  const pending = change.isPending;

  return (
    <form
      ref={formRef}
      aria-label="Change password"
      noValidate
      onSubmit={submit}
      className="flex flex-col gap-4"
    >
      {/* For password managers: the account whose password this is. */}
      <input type="text" name="username" autoComplete="username" value={email} hidden readOnly />
      <TextField
        label="Current password"
        name="current_password"
        type="password"
        autoComplete="current-password"
        error={errors.current_password}
        disabled={pending}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <NewPasswordField
          label="New password"
          name="new_password"
          policy={policy}
          error={errors.new_password}
        />
        <TextField
          label="Repeat the new password"
          name="confirm_password"
          type="password"
          autoComplete="new-password"
          error={errors.confirm_password}
          disabled={pending}
        />
      </div>
      <div className="flex items-center justify-between gap-3">
        <p className="text-xs text-fg-subtle">You stay signed in here; your other devices are signed out.</p>
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner /> : <KeyRound aria-hidden="true" className="size-4" />}
          Change password
        </Button>
      </div>
    </form>
  );
}
