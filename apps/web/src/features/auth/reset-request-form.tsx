import { useMutation } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { FALLBACK_ERROR_MESSAGES } from '@ris/domain';
import { errorMessage, validationFieldErrors } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { PATHS } from '../../paths.ts';
import { notify } from '../../stores/app-store.ts';
import { AuthShell } from './auth-shell.tsx';
import { emailError, formText } from './form-checks.ts';
import { authApi } from './session.ts';
import { TextLink } from './text-link.tsx';

/** Asks for a reset link; the answer never reveals whether the account exists. */
export function ResetRequestForm() {
  const [error, setError] = useState<string>();
  const request = useMutation({
    mutationFn: (email: string) => authApi.requestPasswordReset({ email }),
    onError: (failure) => {
      const inline = validationFieldErrors(failure).email;
      if (inline) setError(inline);
      else notify('error', errorMessage(failure, FALLBACK_ERROR_MESSAGES.resetPassword));
    },
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const email = formText(new FormData(event.currentTarget), 'email').trim();
    const found = await emailError(email);
    setError(found);
    if (!found) request.mutate(email);
  }

  return (
    <AuthShell
      title="Reset your password"
      description="Enter the e-mail of your account and we will send you a link to choose a new password."
      footer={
        <>
          Remembered it? <TextLink to={PATHS.login}>Back to sign in</TextLink>
        </>
      }
    >
      {request.isSuccess ? (
        <div role="status" className="flex gap-3 rounded-lg border border-line bg-surface-raised p-4">
          <MailCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent" />
          <p className="text-[13px] text-fg-muted">
            If an account exists for <span className="font-medium text-fg">{request.variables}</span>, a link
            to reset its password is on its way. Check your inbox and spam folder.
          </p>
        </div>
      ) : (
        <form
          className="flex flex-col gap-4"
          onSubmit={(event) => void onSubmit(event)}
          aria-busy={request.isPending}
          noValidate
        >
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            autoFocus
            placeholder="name@hospital.org"
            error={error}
          />
          <Button type="submit" size="lg" className="mt-1 w-full" disabled={request.isPending}>
            {request.isPending ? <Spinner /> : null}
            Send reset link
          </Button>
        </form>
      )}
    </AuthShell>
  );
}
