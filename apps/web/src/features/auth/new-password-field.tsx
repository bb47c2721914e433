import type { TPasswordPolicy } from '@ris/domain';
import { TextField } from '../../components/ui/text-field.tsx';
import { passwordRules } from './form-checks.ts';

export interface NewPasswordFieldProps {
  label?: string;
  name?: string;
  policy: TPasswordPolicy;
  error?: string | undefined;
  autoFocus?: boolean;
}

/** A new-password input with the server's password policy listed under it. */
export function NewPasswordField({
  label = 'Password',
  name = 'password',
  policy,
  error,
  autoFocus,
}: NewPasswordFieldProps) {
  const rules = passwordRules(policy);
  return (
    <TextField
      label={label}
      name={name}
      type="password"
      autoComplete="new-password"
      autoFocus={autoFocus}
      maxLength={policy.max_length}
      error={error}
      hint={
        <ul aria-label="Password requirements" className="flex flex-col gap-0.5">
          {rules.map((rule) => (
            <li key={rule} className="flex gap-1.5 before:text-fg-subtle before:content-['•']">
              {rule}
            </li>
          ))}
        </ul>
      }
    />
  );
}
