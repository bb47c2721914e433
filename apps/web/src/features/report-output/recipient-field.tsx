import type { TDeliveryChannel } from '@ris/domain';
import { X } from 'lucide-react';
import { useId, type KeyboardEvent } from 'react';
import { cn } from '../../components/ui/cn.ts';
import { addRecipients } from './recipients.ts';

/** One channel's recipients: the accepted chips, the text being typed, and its inline error. */
export interface TRecipientFieldState {
  recipients: string[];
  text: string;
  error: string | null;
}

export const EMPTY_RECIPIENTS: TRecipientFieldState = { recipients: [], text: '', error: null };

/** Turns the typed text into chips (valid entries) and leaves the refused ones with the error. */
export function commitRecipientText(
  channel: TDeliveryChannel,
  state: TRecipientFieldState,
): TRecipientFieldState {
  if (state.text.trim() === '') return { ...state, text: '', error: null };
  const result = addRecipients(channel, state.recipients, state.text);
  return { recipients: result.recipients, text: result.rest, error: result.error };
}

export interface RecipientFieldProps {
  channel: TDeliveryChannel;
  label: string;
  placeholder: string;
  hint: string;
  value: TRecipientFieldState;
  onChange: (next: TRecipientFieldState) => void;
  disabled?: boolean;
}

/**
 * A chip input: Enter, comma, semicolon (and, for e-mail, a space) or leaving the field turns what was
 * typed into chips, checked like the API checks them; an entry that fails stays in the field with
 * its error. Backspace in an empty field removes the last chip.
 */
export function RecipientField({
  channel,
  label,
  placeholder,
  hint,
  value,
  onChange,
  disabled,
}: RecipientFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const separators = channel === 'email' ? /[\s,;]/ : /[,;\n]/;

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      onChange(commitRecipientText(channel, value));
    } else if (event.key === 'Backspace' && value.text === '' && value.recipients.length > 0) {
      onChange({ ...value, recipients: value.recipients.slice(0, -1), error: null });
    }
  };

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-[13px] font-medium text-fg">
        {label}
      </label>
      <div
        className={cn(
          'flex min-h-9 flex-wrap items-center gap-1.5 rounded-md border bg-surface-raised px-2 py-1.5 shadow-xs',
          value.error ? 'border-danger' : 'border-line-strong focus-within:border-accent',
        )}
      >
        <ul aria-label={`${label} added`} className="contents">
          {value.recipients.map((recipient) => (
            <li
              key={recipient}
              className="flex items-center gap-1 rounded bg-accent-soft py-0.5 pr-0.5 pl-2 text-[12px] text-fg"
            >
              {recipient}
              <button
                type="button"
                aria-label={`Remove ${recipient}`}
                disabled={disabled}
                onClick={() =>
                  onChange({ ...value, recipients: value.recipients.filter((other) => other !== recipient) })
                }
                className="rounded p-0.5 text-fg-muted hover:bg-surface-hover hover:text-fg"
              >
                <X aria-hidden="true" className="size-3" />
              </button>
            </li>
          ))}
        </ul>
        <input
          id={id}
          // Plain text: an e-mail input would trim the separator the chips are made on.
          type="text"
          inputMode={channel === 'email' ? 'email' : 'tel'}
          autoComplete="off"
          spellCheck={false}
          value={value.text}
          placeholder={value.recipients.length === 0 ? placeholder : undefined}
          disabled={disabled}
          aria-invalid={value.error ? true : undefined}
          aria-describedby={[value.error ? errorId : null, hintId].filter(Boolean).join(' ')}
          onKeyDown={onKeyDown}
          onBlur={() => onChange(commitRecipientText(channel, value))}
          onChange={(event) => {
            const text = event.target.value;
            const next = { ...value, text, error: null };
            onChange(separators.test(text) ? commitRecipientText(channel, next) : next);
          }}
          className="h-6 min-w-40 flex-1 bg-transparent text-sm text-fg outline-none placeholder:text-fg-subtle"
        />
      </div>
      {value.error ? (
        <p id={errorId} className="text-xs font-medium text-danger">
          {value.error}
        </p>
      ) : null}
      <p id={hintId} className="text-xs text-fg-subtle">
        {hint}
      </p>
    </div>
  );
}
