import { effectiveMinPasswordLength, type TPasswordPolicy } from '@ris/domain';
import { authError } from './auth-errors.ts';

export const PASSWORD_MAX_LENGTH = 1024;

/** GET /auth/password-policy: the configured minimum (never below the specification's 6). */
export function passwordPolicy(configuredMinLength: number): TPasswordPolicy {
  const min = effectiveMinPasswordLength(configuredMinLength);
  return {
    min_length: min,
    max_length: PASSWORD_MAX_LENGTH,
    rules: [
      `At least ${min} characters`,
      `At most ${PASSWORD_MAX_LENGTH} characters`,
      'Different from your e-mail address',
    ],
  };
}

/** Throws 400 auth/weak-password naming the broken rule (details.rule). */
export function assertPasswordAllowed(policy: TPasswordPolicy, password: string, email: string): void {
  const length = [...password].length;
  if (length < policy.min_length) {
    throw authError('auth/weak-password', `Password must be at least ${policy.min_length} characters.`, {
      field: 'password',
      rule: 'min_length',
      min_length: policy.min_length,
    });
  }
  if (length > policy.max_length) {
    throw authError('auth/weak-password', `Password must be at most ${policy.max_length} characters.`, {
      field: 'password',
      rule: 'max_length',
      max_length: policy.max_length,
    });
  }
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) {
    throw authError('auth/weak-password', 'Password must be different from your e-mail address.', {
      field: 'password',
      rule: 'not_email',
    });
  }
}
