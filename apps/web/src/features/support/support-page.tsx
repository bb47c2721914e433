import {
  FALLBACK_ERROR_MESSAGES,
  MAX_SUPPORT_FILE_BYTES,
  MAX_SUPPORT_FILES,
  MAX_SUPPORT_MESSAGE_LENGTH,
  ZSupportFields,
  type TSupportResponse,
} from '@ris/domain';
import { useMutation } from '@tanstack/react-query';
import { CheckCircle2, Paperclip, Send, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { uploadForm } from '../../api/upload.ts';
import { Page } from '../../components/layout/page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField, inputClassName } from '../../components/ui/text-field.tsx';
import { UploadProgress } from '../../components/ui/upload-progress.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { apiFieldErrors, pickFieldErrors } from '../../api/field-errors.ts';
import { zodFieldErrors } from '../templates/form-fields.tsx';
import { SUPPORT_ATTACHMENT_ACCEPT, addAttachments, fileSize } from './support-attachments.ts';

const FIELDS = ['user_name', 'email', 'message', 'upload_files'] as const;
type TErrors = Partial<Record<(typeof FIELDS)[number], string>>;

interface TSupportRequest {
  userId: string;
  name: string;
  email: string;
  message: string;
  files: readonly File[];
}

/** POST /comm/email/send-support (multipart), with upload progress. */
function sendSupport(request: TSupportRequest, onProgress: (percent: number) => void) {
  const form = new FormData();
  form.append('user_id', request.userId);
  form.append('user_name', request.name.trim());
  form.append('email', request.email.trim());
  form.append('message', request.message.trim());
  for (const file of request.files) form.append('upload_files', file, file.name);
  return uploadForm<TSupportResponse>({
    path: '/comm/email/send-support',
    form,
    onProgress: (progress) => onProgress(progress.percent),
  });
}

/** Field errors of the form before sending, in words for people; the schema catches the rest. */
export function checkSupportForm(fields: {
  user_id: string;
  user_name: string;
  email: string;
  message: string;
}): TErrors {
  const errors: TErrors = {};
  if (fields.user_name.trim() === '') errors.user_name = 'Your name is required';
  if (fields.email.trim() === '') errors.email = 'E-mail is required';
  if (fields.message.trim() === '') errors.message = 'Message is required';
  const check = ZSupportFields.safeParse(fields);
  if (!check.success) {
    for (const [field, text] of Object.entries(pickFieldErrors(zodFieldErrors(check.error.issues), FIELDS))) {
      const key = field as keyof TErrors;
      errors[key] ??= key === 'email' ? `E-mail ${text}` : text;
    }
  }
  return errors;
}

/** /support: a message to the support team with optional attachments, sent as an e-mail. */
export function SupportPage() {
  const user = useAuth((state) => state.user);
  const ids = { message: useId(), files: useId() };
  const [name, setName] = useState(user?.display_name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [message, setMessage] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<TErrors>({});
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const send = useMutation({
    mutationFn: (request: TSupportRequest) => sendSupport(request, setProgress),
    onSuccess: (_response, request) => {
      notify('success', 'Support email sent');
      setSentTo(request.email.trim());
      setMessage('');
      setFiles([]);
      setErrors({});
    },
    onError: (error) => {
      const fields = pickFieldErrors(apiFieldErrors(error), FIELDS);
      setErrors(fields);
      notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.sendSupportEmail));
    },
    onSettled: () => setProgress(null),
  });

  const clearError = (field: keyof TErrors) => {
    if (errors[field]) setErrors({ ...errors, [field]: undefined });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!user) return;
    const found = checkSupportForm({ user_id: user.id, user_name: name, email, message });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSentTo(null);
    send.mutate({ userId: user.id, name, email, message, files });
  };

  const messageErrorId = `${ids.message}-error`;
  return (
    <Page title="Support" description="Write to the support team; the reply comes to your e-mail address.">
      <form
        aria-label="Support request"
        noValidate
        onSubmit={submit}
        className="flex max-w-2xl flex-col gap-4 rounded-lg border border-line bg-surface p-5"
      >
        {sentTo ? (
          <p
            role="status"
            className="flex items-center gap-2 rounded-md bg-accent-soft px-3 py-2 text-[13px] text-fg"
          >
            <CheckCircle2 aria-hidden="true" className="size-4 text-accent" />
            Your message was sent to the support team. The reply will come to {sentTo}.
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Your name"
            value={name}
            autoComplete="name"
            maxLength={200}
            error={errors.user_name}
            onChange={(event) => {
              setName(event.target.value);
              clearError('user_name');
            }}
          />
          <TextField
            label="E-mail"
            type="email"
            value={email}
            autoComplete="email"
            error={errors.email}
            onChange={(event) => {
              setEmail(event.target.value);
              clearError('email');
            }}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={ids.message} className="text-[13px] font-medium text-fg">
            Message
          </label>
          <textarea
            id={ids.message}
            rows={8}
            value={message}
            maxLength={MAX_SUPPORT_MESSAGE_LENGTH}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={errors.message ? messageErrorId : undefined}
            onChange={(event) => {
              setMessage(event.target.value);
              clearError('message');
            }}
            placeholder="What happened, on which screen, and what you expected."
            className={cn(inputClassName, 'h-auto py-2')}
          />
          <div className="flex justify-between gap-2 text-xs">
            {errors.message ? (
              <p id={messageErrorId} className="font-medium text-danger">
                {errors.message}
              </p>
            ) : (
              <span />
            )}
            <span className="text-fg-subtle tabular-nums">
              {message.length} / {MAX_SUPPORT_MESSAGE_LENGTH}
            </span>
          </div>
        </div>
        <div className="flex flex-col gap-1.5">
          <div className="flex items-center justify-between gap-2">
            <span className="text-[13px] font-medium text-fg">Attachments</span>
            <label
              htmlFor={ids.files}
              className="flex cursor-pointer items-center gap-1.5 rounded-md px-2 py-1 text-[12px] text-fg-muted hover:bg-surface-hover hover:text-fg"
            >
              <Paperclip aria-hidden="true" className="size-3.5" /> Attach files
            </label>
            <input
              id={ids.files}
              type="file"
              multiple
              accept={SUPPORT_ATTACHMENT_ACCEPT}
              className="sr-only"
              disabled={send.isPending}
              onChange={(event) => {
                const picked = Array.from(event.target.files ?? []);
                event.target.value = '';
                const result = addAttachments(files, picked);
                setFiles(result.files);
                setFileErrors(result.errors);
              }}
            />
          </div>
          {files.length > 0 ? (
            <ul aria-label="Attached files" className="flex flex-col gap-1">
              {files.map((file) => (
                <li
                  key={`${file.name}-${file.size}`}
                  className="flex items-center justify-between gap-2 rounded border border-line px-2 py-1 text-[12px] text-fg"
                >
                  <span className="truncate">{file.name}</span>
                  <span className="flex items-center gap-2 text-fg-subtle">
                    {fileSize(file.size)}
                    <button
                      type="button"
                      aria-label={`Remove ${file.name}`}
                      disabled={send.isPending}
                      onClick={() => setFiles(files.filter((other) => other !== file))}
                      className="rounded p-0.5 hover:bg-surface-hover hover:text-danger"
                    >
                      <X aria-hidden="true" className="size-3" />
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          {[...fileErrors, ...(errors.upload_files ? [errors.upload_files] : [])].map((text) => (
            <p key={text} role="alert" className="text-xs font-medium text-danger">
              {text}
            </p>
          ))}
          <p className="text-xs text-fg-subtle">
            Up to {MAX_SUPPORT_FILES} PNG, JPEG, WebP or PDF files of at most{' '}
            {Math.floor(MAX_SUPPORT_FILE_BYTES / 1024 / 1024)} MB each.
          </p>
        </div>
        <UploadProgress percent={progress} />
        <div className="flex justify-end">
          <Button type="submit" disabled={send.isPending || !user}>
            {send.isPending ? <Spinner /> : <Send aria-hidden="true" className="size-4" />}
            Send
          </Button>
        </div>
      </form>
    </Page>
  );
}
