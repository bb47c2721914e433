import { useMutation } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { FALLBACK_ERROR_MESSAGES } from '@ris/domain';
import { errorMessage, isApiError, validationFieldErrors } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { PATHS } from '../../paths.ts';
import { notify } from '../../stores/app-store.ts';
import { usePasswordPolicy } from './auth-queries.ts';
import { AuthShell } from './auth-shell.tsx';
import { FIELD_MESSAGES, compactErrors, formText, newPasswordError, type Errors } from './form-checks.ts';
import { NewPasswordField } from './new-password-field.tsx';
import { authApi } from './session.ts';
import { TextLink } from './text-link.tsx';

export const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed. Sign in with your new password.';
export const RESET_LINK_EXPIRED_MESSAGE = 'This reset link has expired or has already been used.';

type ResetField = 'password' | 'confirm_password';

/** The reset link's form (/forgot-password?token=…): choose a new password, POST it with the token. */
export function ResetConfirmForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const policy = usePasswordPolicy();
  const [errors, setErrors] = useState<Errors<ResetField>>({});
  const [expired, setExpired] = useState(false);
  const confirm = useMutation({
    mutationFn: (password: string) => authApi.confirmPasswordReset({ token, password }),
    onSuccess: () => {
      notify('success', PASSWORD_CHANGED_MESSAGE);
      void navigate(PATHS.login, { replace: true });
    },
    onError: (error) => {
      const code = isApiError(error) ? error.code : undefined;
      const fields = validationFieldErrors(error);
      if (code === 'auth/expired-action-code' || fields.token) setExpired(true);
      else if (code === 'auth/weak-password') setErrors({ password: errorMessage(error, 'Weak password') });
      else if (fields.password) setErrors({ password: fields.password });
      else notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.resetPassword));
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = formText(form, 'password');
    const found = compactErrors<ResetField>({
      password: newPasswordError(password, policy),
      confirm_password:
        formText(form, 'confirm_password') === password ? undefined : FIELD_MESSAGES.passwordsDiffer,
    });
    setErrors(found);
    if (Object.keys(found).length === 0) confirm.mutate(password);
  }

  const footer = (
    <>
      Remembered it? <TextLink to={PATHS.login}>Back to sign in</TextLink>
    </>
  );

  if (expired) {
    return (
      <AuthShell title="Choose a new password" footer={footer}>
        <div role="alert" className="flex gap-3 rounded-lg border border-line bg-danger-soft p-4">
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-danger" />
          <div className="text-[13px] text-fg">
            <p>{RESET_LINK_EXPIRED_MESSAGE}</p>
            <TextLink to={PATHS.forgotPassword} replace className="mt-2 inline-block">
              Request a new link
            </TextLink>
          </div>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Choose a new password"
      description="Pick the password you will sign in with from now on."
      footer={footer}
    >
      <form className="flex flex-col gap-4" onSubmit={onSubmit} aria-busy={confirm.isPending} noValidate>
        <NewPasswordField label="New password" policy={policy} error={errors.password} autoFocus />
        <TextField
          label="Confirm new password"
          name="confirm_password"
          type="password"
          autoComplete="new-password"
          required
          error={errors.confirm_password}
        />
        <Button type="submit" size="lg" className="mt-1 w-full" disabled={confirm.isPending}>
          {confirm.isPending ? <Spinner /> : null}
          Set new password
        </Button>
      </form>
    </AuthShell>
  );
}
