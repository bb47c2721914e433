import type { FormEvent } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { PATHS } from '../../paths.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { AuthShell } from './auth-shell.tsx';
import type { LoginRedirectState } from './route-guard.tsx';
import { authSession } from './session.ts';
import { TextLink } from './text-link.tsx';

/** State other public screens pass to /login (sign-up hands over the new account's e-mail). */
export interface LoginPageState extends LoginRedirectState {
  email?: string;
}

/** Only same-app paths are followed after sign-in, never another origin. */
function safeReturnPath(from: string | undefined): string {
  return from && from.startsWith('/') && !from.startsWith('//') ? from : PATHS.home;
}

function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** /login: e-mail and password sign-in; failures are shown as a toast with the login message. */
export function LoginPage() {
  const location = useLocation();
  const state = (location.state ?? {}) as LoginPageState;
  const signedIn = useAuth((s) => s.user !== null && !s.isAuthInitializing);
  const pending = useAuth((s) => s.loginUserInflight || s.verifyUserInflight);

  if (signedIn && !pending) return <Navigate to={safeReturnPath(state.from)} replace />;

  function onSubmit(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void authSession.signIn({ email: formText(form, 'email').trim(), password: formText(form, 'password') });
  }

  return (
    <AuthShell
      title="Sign in"
      description="Use your work e-mail to open the worklist."
      footer={
        <>
          New to RIS? <TextLink to={PATHS.signup}>Create an account</TextLink>
        </>
      }
    >
      <form className="flex flex-col gap-4" onSubmit={onSubmit} aria-busy={pending}>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          defaultValue={state.email}
          required
          autoFocus
          placeholder="name@hospital.org"
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          labelAside={
            <TextLink to={PATHS.forgotPassword} className="text-xs">
              Forgot password?
            </TextLink>
          }
        />
        <Button type="submit" size="lg" className="mt-1 w-full" disabled={pending}>
          {pending ? <Spinner /> : null}
          Sign in
        </Button>
      </form>
    </AuthShell>
  );
}
