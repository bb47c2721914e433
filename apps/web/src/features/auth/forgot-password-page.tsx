import { useSearchParams } from 'react-router';
import { AUTH_LINK_PARAMS } from '../../paths.ts';
import { ResetConfirmForm } from './reset-confirm-form.tsx';
import { ResetRequestForm } from './reset-request-form.tsx';

/**
 * /forgot-password asks for a reset link; the link in the e-mail comes back here with `?token=…`,
 * which shows the form that chooses the new password.
 */
export function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get(AUTH_LINK_PARAMS.passwordResetToken);
  return token ? <ResetConfirmForm token={token} /> : <ResetRequestForm />;
}
