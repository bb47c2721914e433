import { useMutation } from '@tanstack/react-query';
import { CircleAlert, MailCheck } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { LoadingOverlay } from '../../components/ui/loading-overlay.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { AUTH_LINK_PARAMS, PATHS } from '../../paths.ts';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { useAuthConfig } from './auth-queries.ts';
import { AuthShell } from './auth-shell.tsx';
import { EmailLinkSignIn } from './email-link-sign-in.tsx';
import { FIELD_MESSAGES, compactErrors, emailError, formText, type Errors } from './form-checks.ts';
import type { LoginRedirectState } from './route-guard.tsx';
import { authApi, authSession } from './session.ts';
import { TextLink } from './text-link.tsx';

/** State other public screens pass to /login (sign-up hands over the new account's e-mail). */
export interface LoginPageState extends LoginRedirectState {
  email?: string;
  /** A refusal to keep showing (an e-mail link's account without an organisation). */
  notice?: string;
}

/** Shown when asking for a sign-in link fails without a server message. */
export const EMAIL_LINK_FAILED_MESSAGE = 'Failed to send the sign-in link';

type LoginField = 'email' | 'password';

/** Only same-app paths are followed after sign-in, never another origin. */
function safeReturnPath(from: string | undefined): string {
  return from && from.startsWith('/') && !from.startsWith('//') ? from : PATHS.home;
}

/** /login: e-mail and password sign-in (failures in a toast, §8), or a sign-in link by e-mail. */
export function LoginPage() {
  const location = useLocation();
  const [params] = useSearchParams();
  const state = (location.state ?? {}) as LoginPageState;
  const initializing = useAuth((s) => s.isAuthInitializing);
  const signedIn = useAuth((s) => s.user !== null);
  const pending = useAuth((s) => s.loginUserInflight || s.fetchUserByEmailInflight || s.verifyUserInflight);
  const emailLinkToken = params.get(AUTH_LINK_PARAMS.emailLinkToken);

  if (signedIn && !pending && !initializing) return <Navigate to={safeReturnPath(state.from)} replace />;
  if (emailLinkToken) return <EmailLinkSignIn token={emailLinkToken} />;
  if (initializing) return <LoadingOverlay fullScreen size="large" loadingText="Loading RIS…" />;
  return <LoginForm defaultEmail={state.email} initialNotice={state.notice} pending={pending} />;
}

function LoginForm(props: {
  defaultEmail: string | undefined;
  initialNotice: string | undefined;
  pending: boolean;
}) {
  const { defaultEmail, pending } = props;
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<Errors<LoginField>>({});
  const [notice, setNotice] = useState<string | null>(props.initialNotice ?? null);
  const { config } = useAuthConfig();
  const emailLink = useMutation({
    mutationFn: (email: string) => authApi.requestEmailLink({ email }),
    onError: (error) => notify('error', errorMessage(error, EMAIL_LINK_FAILED_MESSAGE)),
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = formText(form, 'email').trim();
    const password = formText(form, 'password');
    const found = compactErrors<LoginField>({
      email: await emailError(email),
      password: password === '' ? FIELD_MESSAGES.passwordRequired : undefined,
    });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setNotice(null);
    const outcome = await authSession.signIn({ email, password });
    if (!outcome.ok) {
      setErrors(outcome.fieldErrors);
      setNotice(outcome.notice ?? null);
    }
  }

  async function sendLink(): Promise<void> {
    if (!formRef.current) return;
    const email = formText(new FormData(formRef.current), 'email').trim();
    const error = await emailError(email);
    setErrors(compactErrors<LoginField>({ email: error }));
    if (!error) emailLink.mutate(email);
  }

  return (
    <AuthShell
      title="Sign in"
      description="Use your work e-mail to open the worklist."
      footer={
        config.signup_enabled ? (
          <>
            New to RIS? <TextLink to={PATHS.signup}>Create an account</TextLink>
          </>
        ) : undefined
      }
    >
      {notice ? <SignInNotice text={notice} /> : null}
      {emailLink.isSuccess ? (
        <div role="status" className="mb-5 flex gap-3 rounded-lg border border-line bg-surface-raised p-4">
          <MailCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent" />
          <p className="text-[13px] text-fg-muted">
            If an account exists for <span className="font-medium text-fg">{emailLink.variables}</span>, a
            sign-in link is on its way. Open it in this browser.
          </p>
        </div>
      ) : null}
      <form
        ref={formRef}
        className="flex flex-col gap-4"
        onSubmit={(event) => void onSubmit(event)}
        aria-busy={pending}
        noValidate
      >
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          defaultValue={defaultEmail}
          required
          autoFocus
          placeholder="name@hospital.org"
          error={errors.email}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={errors.password}
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
        {config.email_link_enabled ? (
          <Button
            variant="secondary"
            size="lg"
            className="w-full"
            onClick={() => void sendLink()}
            disabled={pending || emailLink.isPending}
          >
            {emailLink.isPending ? <Spinner /> : null}
            Email me a sign-in link
          </Button>
        ) : null}
      </form>
    </AuthShell>
  );
}

/** Stays on the form after the toast has gone: how long to wait, or why the account was refused. */
export function SignInNotice({ text }: { text: string }) {
  return (
    <div
      role="alert"
      className="mb-5 flex gap-3 rounded-lg border border-danger/40 bg-danger-soft p-4 text-[13px] text-fg"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-danger" />
      <p>{text}</p>
    </div>
  );
}
