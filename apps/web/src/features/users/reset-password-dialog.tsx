import type { TAdminResetPasswordResponse, TManagedUser } from '@ris/domain';
import { useMutation } from '@tanstack/react-query';
import { Check, Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { formatShortDateTime } from '../../components/format-date-time.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { inputClassName } from '../../components/ui/text-field.tsx';
import { notify } from '../../stores/app-store.ts';
import { RESET_PASSWORD_FAILED, usersApi } from './users-api.ts';

type TDelivery = 'email' | 'link';

function OneTimeLink({ result }: { result: TAdminResetPasswordResponse }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const link = result.reset_link ?? '';
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-[13px] font-medium text-fg">
        One-time link
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          readOnly
          value={link}
          onFocus={(event) => event.target.select()}
          className={`${inputClassName} font-mono text-xs`}
        />
        <Button
          variant="secondary"
          size="lg"
          onClick={() => {
            void navigator.clipboard
              ?.writeText(link)
              .then(() => setCopied(true))
              .catch(() => notify('error', 'Could not copy: select the link and copy it'));
          }}
        >
          {copied ? (
            <Check aria-hidden="true" className="size-4" />
          ) : (
            <Copy aria-hidden="true" className="size-4" />
          )}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p className="text-xs text-fg-muted" role="status">
        Works once{result.expires_at ? `, until ${formatShortDateTime(new Date(result.expires_at))}` : ''}.
        Hand it to the person directly: whoever opens it can set the password.
      </p>
    </div>
  );
}

/** Start a password reset for a user: e-mail them the link, or show a one-time link to hand over. */
export function ResetPasswordDialog({ user, onClose }: { user: TManagedUser; onClose: () => void }) {
  const [delivery, setDelivery] = useState<TDelivery>('email');
  const reset = useMutation({
    mutationFn: () => usersApi.resetPassword(user.email, delivery === 'email'),
    onSuccess: (result) => {
      if (result.reset_link === null) {
        notify('success', `A password reset link was sent to ${user.email}`);
        onClose();
      }
    },
    onError: (error) => notify('error', errorMessage(error, RESET_PASSWORD_FAILED)),
  });
  const result = reset.data?.reset_link ? reset.data : null;
  const pending = reset.isPending;

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !pending && onClose()}
      title={`Reset the password of ${user.display_name}`}
      description="Their current password keeps working until they set a new one."
      footer={
        result ? (
          <Button onClick={onClose}>Done</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button onClick={() => reset.mutate()} disabled={pending}>
              {pending ? <Spinner /> : null}
              {delivery === 'email' ? 'Send the link' : 'Create the link'}
            </Button>
          </>
        )
      }
    >
      {result ? (
        <OneTimeLink result={result} />
      ) : (
        <fieldset className="flex flex-col gap-2 text-[13px]">
          <legend className="sr-only">How the link reaches them</legend>
          {(
            [
              [
                'email',
                `E-mail the link to ${user.email}`,
                'The usual way: only the mailbox’s owner can use it.',
              ],
              [
                'link',
                'Show me a one-time link to hand over in person',
                'For someone who cannot receive mail now. The audit log records that you made it.',
              ],
            ] as const
          ).map(([value, text, hint]) => (
            <label
              key={value}
              className="flex cursor-pointer gap-2.5 rounded-md border border-line-strong px-3 py-2.5 has-[:checked]:border-accent has-[:checked]:bg-accent-soft"
            >
              <input
                type="radio"
                name="reset-delivery"
                value={value}
                checked={delivery === value}
                onChange={() => setDelivery(value)}
                className="mt-0.5 size-3.5 shrink-0 accent-(--color-accent)"
              />
              <span className="flex flex-col gap-0.5">
                <span className="font-medium text-fg">{text}</span>
                <span className="text-xs text-fg-muted">{hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
    </Dialog>
  );
}
