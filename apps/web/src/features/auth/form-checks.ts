import { MIN_PASSWORD_LENGTH, effectiveMinPasswordLength, type TPasswordPolicy } from '@ris/domain';

/** Messages of the client-side checks (the specification leaves field-level rules open, §5). */
export const FIELD_MESSAGES = {
  emailRequired: 'Enter your email address',
  /** Same words as the login table's 'invalid e-mail' row. */
  emailInvalid: 'Invalid email address',
  passwordRequired: 'Enter your password',
  passwordsDiffer: 'The passwords do not match',
  nameRequired: 'Required',
} as const;

/** Used until the server's policy arrives, or when it cannot be fetched; the server checks again. */
export const FALLBACK_PASSWORD_POLICY: TPasswordPolicy = {
  min_length: MIN_PASSWORD_LENGTH,
  max_length: 1024,
  rules: [],
};

export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** Async: the e-mail rule is the domain's zod schema, which the sign-in screen loads on first use. */
export async function emailError(email: string): Promise<string | undefined> {
  if (email.trim() === '') return FIELD_MESSAGES.emailRequired;
  const { ZEmail } = await import('../../api/auth-schemas.ts');
  return ZEmail.safeParse(email).success ? undefined : FIELD_MESSAGES.emailInvalid;
}

/** The length rule the client can check; every other rule of the policy is the server's to check. */
export function newPasswordError(password: string, policy: TPasswordPolicy): string | undefined {
  const min = effectiveMinPasswordLength(policy.min_length);
  if (password.length < min) return `Password must be at least ${min} characters`;
  if (password.length > policy.max_length) return `Password must be at most ${policy.max_length} characters`;
  return undefined;
}

/** What to show under a new-password field: the server's rules, or the length rule when it sent none. */
export function passwordRules(policy: TPasswordPolicy): string[] {
  if (policy.rules.length > 0) return policy.rules;
  return [`At least ${effectiveMinPasswordLength(policy.min_length)} characters`];
}

export type Errors<K extends string> = Partial<Record<K, string>>;

/** Drops undefined entries so `Object.keys(errors).length` says whether the form may be sent. */
export function compactErrors<K extends string>(errors: Errors<K>): Errors<K> {
  return Object.fromEntries(Object.entries(errors).filter(([, value]) => value !== undefined)) as Errors<K>;
}
