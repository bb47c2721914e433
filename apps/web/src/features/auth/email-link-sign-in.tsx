import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../components/ui/spinner.tsx';
import { PATHS } from '../../paths.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { AuthShell } from './auth-shell.tsx';
import type { LoginPageState } from './login-page.tsx';
import { authSession } from './session.ts';

/** Tokens already POSTed by this page load: a token is single-use, re-renders must not resend it. */
const consumedTokens = new Set<string>();

/**
 * /login?email_link_token=…: the page, not the GET, signs in (POST /auth/email-link/sign-in), so a
 * mail scanner that fetches the link consumes nothing. Success lands on the login page's redirect;
 * failure shows the login toast and the plain sign-in form, with the refusal's notice if any.
 */
export function EmailLinkSignIn({ token }: { token: string }) {
  const navigate = useNavigate();
  const initializing = useAuth((state) => state.isAuthInitializing);

  useEffect(() => {
    if (initializing || consumedTokens.has(token)) return;
    consumedTokens.add(token);
    void authSession.signInWithEmailLink(token).then((outcome) => {
      if (outcome.ok) return;
      const state: LoginPageState = outcome.notice ? { notice: outcome.notice } : {};
      void navigate(PATHS.login, { replace: true, state });
    });
  }, [initializing, navigate, token]);

  return (
    <AuthShell title="Signing you in" description="Checking your sign-in link…">
      <div role="status" className="flex items-center gap-3 text-[13px] text-fg-muted">
        <Spinner className="text-accent" />
        One moment, please.
      </div>
    </AuthShell>
  );
}
