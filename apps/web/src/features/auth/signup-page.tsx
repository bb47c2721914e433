import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MIN_PASSWORD_LENGTH } from '@ris/domain';
import { errorMessage } from '../../api/api-error.ts';
import type { TSignUpRequest } from '../../api/auth-api.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { PATHS } from '../../paths.ts';
import { notify } from '../../stores/app-store.ts';
import { AuthShell } from './auth-shell.tsx';
import type { LoginPageState } from './login-page.tsx';
import { authApi } from './session.ts';
import { TextLink } from './text-link.tsx';

/** Fallback when sign-up fails without a server message (the specification lists none). */
export const SIGN_UP_FAILED_MESSAGE = 'Failed to create account';
export const SIGN_UP_SUCCESS_MESSAGE = 'Account created. You can now sign in.';

function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** /signup: creates an account, then sends the user to /login with the e-mail filled in. */
export function SignupPage() {
  const navigate = useNavigate();
  const [passwordError, setPasswordError] = useState<string>();
  const signUp = useMutation({
    mutationFn: (body: TSignUpRequest) => authApi.signUp(body),
    onSuccess: (_data, body) => {
      notify('success', SIGN_UP_SUCCESS_MESSAGE);
      const state: LoginPageState = { email: body.email };
      void navigate(PATHS.login, { state });
    },
    onError: (error) => notify('error', errorMessage(error, SIGN_UP_FAILED_MESSAGE)),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = form.get('password');
    if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
      setPasswordError(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
      return;
    }
    setPasswordError(undefined);
    signUp.mutate({
      first_name: formText(form, 'first_name'),
      last_name: formText(form, 'last_name'),
      email: formText(form, 'email'),
      password,
    });
  }

  return (
    <AuthShell
      title="Create an account"
      description="Join your group's reading workspace."
      footer={
        <>
          Already have an account? <TextLink to={PATHS.login}>Sign in</TextLink>
        </>
      }
    >
      <form className="flex flex-col gap-4" onSubmit={onSubmit} aria-busy={signUp.isPending}>
        <div className="grid grid-cols-2 gap-3">
          <TextField label="First name" name="first_name" autoComplete="given-name" required autoFocus />
          <TextField label="Last name" name="last_name" autoComplete="family-name" required />
        </div>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          placeholder="name@hospital.org"
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          error={passwordError}
        />
        <Button type="submit" size="lg" className="mt-1 w-full" disabled={signUp.isPending}>
          {signUp.isPending ? <Spinner /> : null}
          Create account
        </Button>
      </form>
    </AuthShell>
  );
}
