import { SIGN_UP_CLOSED_MESSAGE, SIGN_UP_COMPLETE_MESSAGE } from '@ris/domain';
import { useMutation } from '@tanstack/react-query';
import { UserCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage, isApiError, validationFieldErrors } from '../../api/api-error.ts';
import type { TSignUpRequest } from '../../api/auth-api.ts';
import { Button } from '../../components/ui/button.tsx';
import { LoadingOverlay } from '../../components/ui/loading-overlay.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { PATHS } from '../../paths.ts';
import { notify } from '../../stores/app-store.ts';
import { useAuthConfig, usePasswordPolicy } from './auth-queries.ts';
import { AuthShell } from './auth-shell.tsx';
import {
  FIELD_MESSAGES,
  compactErrors,
  emailError,
  formText,
  newPasswordError,
  type Errors,
} from './form-checks.ts';
import type { LoginPageState } from './login-page.tsx';
import { NewPasswordField } from './new-password-field.tsx';
import { authApi } from './session.ts';
import { TextLink } from './text-link.tsx';

/** Fallback when sign-up fails without a server message (the specification lists none). */
export const SIGN_UP_FAILED_MESSAGE = 'Failed to create account';
/** A new account has no organisation until an administrator adds it, so the screen says who to ask. */
export const SIGN_UP_SUCCESS_MESSAGE = SIGN_UP_COMPLETE_MESSAGE;

type SignUpField = 'first_name' | 'last_name' | 'email' | 'password';

/** Server errors that belong to one field, shown under it rather than in a toast. */
const FIELD_OF_CODE: Readonly<Record<string, SignUpField>> = {
  'auth/email-already-in-use': 'email',
  'auth/invalid-email': 'email',
  'auth/weak-password': 'password',
};

/**
 * /signup: creates an account, then says what happens next (an administrator must add it to an
 * organisation before it can sign in). With AUTH_SIGNUP_ENABLED=false (GET /auth/config) it says
 * sign-up is closed.
 */
export function SignupPage() {
  const { config, isLoading } = useAuthConfig();
  if (isLoading) return <LoadingOverlay fullScreen size="large" />;
  if (!config.signup_enabled) {
    return (
      <AuthShell
        title="Sign-up is closed"
        description="Accounts on this RIS are created by an administrator of your group."
        footer={<TextLink to={PATHS.login}>Back to sign in</TextLink>}
      >
        <p className="text-[13px] text-fg-muted">{SIGN_UP_CLOSED_MESSAGE}</p>
      </AuthShell>
    );
  }
  return <SignupForm />;
}

/** After sign-up: the account exists but cannot sign in until an administrator adds it. */
function SignupDone({ email }: { email: string }) {
  const navigate = useNavigate();
  const state: LoginPageState = { email };
  return (
    <AuthShell title="Account created" description={email}>
      <div role="status" className="mb-5 flex gap-3 rounded-lg border border-line bg-surface-raised p-4">
        <UserCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent" />
        <p className="text-[13px] text-fg">{SIGN_UP_SUCCESS_MESSAGE}</p>
      </div>
      <Button size="lg" className="w-full" onClick={() => void navigate(PATHS.login, { state })}>
        Go to sign in
      </Button>
    </AuthShell>
  );
}

function SignupForm() {
  const policy = usePasswordPolicy();
  const [errors, setErrors] = useState<Errors<SignUpField>>({});
  const signUp = useMutation({
    mutationFn: (body: TSignUpRequest) => authApi.signUp(body),
    onError: (error) => {
      const fields = validationFieldErrors(error) as Errors<SignUpField>;
      const field = isApiError(error) ? FIELD_OF_CODE[error.code ?? ''] : undefined;
      if (field) {
        setErrors({ [field]: errorMessage(error, SIGN_UP_FAILED_MESSAGE) });
      } else if (Object.keys(fields).length > 0) {
        setErrors(fields);
      } else {
        notify('error', errorMessage(error, SIGN_UP_FAILED_MESSAGE));
      }
    },
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = {
      first_name: formText(form, 'first_name').trim(),
      last_name: formText(form, 'last_name').trim(),
      email: formText(form, 'email').trim(),
      password: formText(form, 'password'),
    };
    const found = compactErrors<SignUpField>({
      first_name: body.first_name ? undefined : FIELD_MESSAGES.nameRequired,
      last_name: body.last_name ? undefined : FIELD_MESSAGES.nameRequired,
      email: await emailError(body.email),
      password: newPasswordError(body.password, policy),
    });
    setErrors(found);
    if (Object.keys(found).length === 0) signUp.mutate(body);
  }

  if (signUp.isSuccess) return <SignupDone email={signUp.variables.email} />;
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
      <form
        className="flex flex-col gap-4"
        onSubmit={(event) => void onSubmit(event)}
        aria-busy={signUp.isPending}
        noValidate
      >
        <div className="grid grid-cols-2 gap-3">
          <TextField
            label="First name"
            name="first_name"
            autoComplete="given-name"
            required
            autoFocus
            error={errors.first_name}
          />
          <TextField
            label="Last name"
            name="last_name"
            autoComplete="family-name"
            required
            error={errors.last_name}
          />
        </div>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          placeholder="name@hospital.org"
          error={errors.email}
        />
        <NewPasswordField policy={policy} error={errors.password} />
        <Button type="submit" size="lg" className="mt-1 w-full" disabled={signUp.isPending}>
          {signUp.isPending ? <Spinner /> : null}
          Create account
        </Button>
      </form>
    </AuthShell>
  );
}
