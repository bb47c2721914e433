import { FALLBACK_ERROR_MESSAGES, MAX_REPORT_RECIPIENTS, type TWorklistItem } from '@ris/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notify } from '../../stores/app-store.ts';
import {
  EMPTY_RECIPIENTS,
  RecipientField,
  commitRecipientText,
  type TRecipientFieldState,
} from './recipient-field.tsx';
import { reportOutputApi, reportOutputKeys } from './report-output-api.ts';

export interface ShareDialogProps {
  study: TWorklistItem;
  userId: string;
  letterheadByDefault: boolean;
  onClose: () => void;
}

const NO_RECIPIENT = 'Add at least one e-mail address or mobile number';

/**
 * Shares a FINAL report's PDF by e-mail and/or WhatsApp (POST /comm/email/send-report-pdf,
 * /comm/whatsapp/send-report-pdf). Every message is queued on the server and its state appears in
 * the delivery list. One Idempotency-Key per submission: sending the same recipients again after a
 * lost answer does not send twice; changing them makes a new submission.
 */
export function ShareDialog({ study, userId, letterheadByDefault, onClose }: ShareDialogProps) {
  const letterheadId = useId();
  const queryClient = useQueryClient();
  const [emails, setEmails] = useState<TRecipientFieldState>(EMPTY_RECIPIENTS);
  const [mobiles, setMobiles] = useState<TRecipientFieldState>(EMPTY_RECIPIENTS);
  const [letterhead, setLetterhead] = useState(letterheadByDefault);
  const [formError, setFormError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const submission = useRef<string>(crypto.randomUUID());

  const changed = (update: () => void) => {
    update();
    setFormError(null);
    submission.current = crypto.randomUUID();
  };

  const send = async () => {
    const nextEmails = commitRecipientText('email', emails);
    const nextMobiles = commitRecipientText('whatsapp', mobiles);
    setEmails(nextEmails);
    setMobiles(nextMobiles);
    if (nextEmails.error || nextMobiles.error) return;
    if (nextEmails.recipients.length === 0 && nextMobiles.recipients.length === 0) {
      setFormError(NO_RECIPIENT);
      return;
    }
    setSending(true);
    const key = submission.current;
    const common = { worklist_id: study.id, with_letterhead: letterhead, by_user_id: userId };
    const [email, whatsapp] = await Promise.allSettled([
      nextEmails.recipients.length > 0
        ? reportOutputApi.sendEmail({ ...common, emails: nextEmails.recipients }, key)
        : null,
      nextMobiles.recipients.length > 0
        ? reportOutputApi.sendWhatsapp({ ...common, mobile_numbers: nextMobiles.recipients }, key)
        : null,
    ]);
    setSending(false);
    await queryClient.invalidateQueries({ queryKey: reportOutputKeys.deliveries(study.id) });

    // What was queued is done: only a failed channel's recipients stay for another try.
    if (email.status === 'fulfilled') setEmails(EMPTY_RECIPIENTS);
    if (whatsapp.status === 'fulfilled') setMobiles(EMPTY_RECIPIENTS);
    const failure =
      email.status === 'rejected'
        ? errorMessage(email.reason, FALLBACK_ERROR_MESSAGES.shareReportPdfEmail)
        : whatsapp.status === 'rejected'
          ? errorMessage(whatsapp.reason, FALLBACK_ERROR_MESSAGES.shareReportPdfWhatsapp)
          : null;
    if (failure) {
      setFormError(failure);
      notify('error', failure);
      return;
    }
    const count = nextEmails.recipients.length + nextMobiles.recipients.length;
    notify(
      'success',
      count === 1 ? 'Report queued for 1 recipient' : `Report queued for ${count} recipients`,
    );
    onClose();
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !sending && onClose()}
      title="Share report"
      description={`The final report of ${study.patient_name} as a PDF, by e-mail and WhatsApp.`}
      footer={
        <>
          <Button variant="ghost" disabled={sending} onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={sending} onClick={() => void send()}>
            {sending ? <Spinner className="size-3.5" /> : <Send aria-hidden="true" className="size-3.5" />}
            Send
          </Button>
        </>
      }
    >
      <form
        aria-label="Share report"
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <RecipientField
          channel="email"
          label="E-mail addresses"
          placeholder="name@hospital.org"
          hint={`Press Enter or comma after each address; at most ${MAX_REPORT_RECIPIENTS}.`}
          value={emails}
          disabled={sending}
          onChange={(next) => changed(() => setEmails(next))}
        />
        <RecipientField
          channel="whatsapp"
          label="Mobile numbers (WhatsApp)"
          placeholder="+919876543210"
          hint={`With the country code, e.g. +91 98765 43210; at most ${MAX_REPORT_RECIPIENTS}.`}
          value={mobiles}
          disabled={sending}
          onChange={(next) => changed(() => setMobiles(next))}
        />
        <label htmlFor={letterheadId} className="flex items-center gap-2 text-[13px] text-fg">
          <input
            id={letterheadId}
            type="checkbox"
            checked={letterhead}
            disabled={sending}
            onChange={(event) => changed(() => setLetterhead(event.target.checked))}
            className="size-3.5 accent-(--color-accent)"
          />
          With letterhead
        </label>
        {formError ? (
          <p role="alert" className="text-xs font-medium text-danger">
            {formError}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}
