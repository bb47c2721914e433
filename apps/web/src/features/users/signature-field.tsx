import { MAX_SIGNATURE_BYTES } from '@ris/domain';
import { ImageUp, Trash2, Undo2 } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { useStoredImageUrl } from '../../components/hooks/use-stored-image-url.ts';
import { cn } from '../../components/ui/cn.ts';
import { signatureFileError } from './user-form.ts';

/** An object URL for a picked file, revoked when the file changes or the component goes. */
export function usePickedFileUrl(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

export interface SignatureBlockPreviewProps {
  imageUrl: string | null;
  displayName: string;
  description: string;
  /** Whose reports: 'your' on one's own profile. */
  whose?: string;
}

/**
 * The signature block as a report prints it (documents/pdf/pdf-sections.ts): the image at most
 * 40 × 18 mm, the display name in bold under it, then each line of the description a little smaller;
 * without an image, the space to sign a printed copy by hand. Drawn on paper, in either theme.
 */
export function SignatureBlockPreview({
  imageUrl,
  displayName,
  description,
  whose = 'this radiologist’s',
}: SignatureBlockPreviewProps) {
  const lines = description
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return (
    <figure
      aria-label="Signature block preview"
      className="rounded-md border border-line bg-white px-5 py-4 text-[#111] shadow-xs"
    >
      <div className="flex w-62 flex-col items-start font-serif text-[12px] leading-snug">
        {imageUrl ? (
          <img
            src={imageUrl}
            alt="Signature"
            className="mb-0.5 max-h-18 max-w-40 object-contain object-left-bottom"
          />
        ) : (
          <div aria-hidden="true" className="h-11 w-40 border-b border-dashed border-[#bbb]" />
        )}
        <p className="font-bold">{displayName || 'Display name'}</p>
        {lines.map((line, index) => (
          <p key={index} className="text-[11px] text-[#333]">
            {line}
          </p>
        ))}
      </div>
      <figcaption className="mt-3 text-[11px] text-[#666]">
        How the signature block appears on {whose} reports (PDF and DOCX).
      </figcaption>
    </figure>
  );
}

export interface SignatureFieldProps {
  /** userSignaturePath of the stored image, or null when none is on file. */
  storedPath: string | null;
  /** Changes when the stored image may have changed (the user's updated_at). */
  version: string;
  picked: File | null;
  onPick: (file: File | null) => void;
  /** The stored image is to be removed on save. */
  removed: boolean;
  onRemovedChange: (removed: boolean) => void;
  displayName: string;
  description: string;
  /** The server's refusal of the file (field signature_file). */
  error?: string | undefined;
  disabled?: boolean;
  whose?: string;
}

/** Choose, replace or remove a signature image, with the block it will make on a report. */
export function SignatureField({
  storedPath,
  version,
  picked,
  onPick,
  removed,
  onRemovedChange,
  displayName,
  description,
  error,
  disabled = false,
  whose,
}: SignatureFieldProps) {
  const inputId = useId();
  const errorId = useId();
  const [pickError, setPickError] = useState<string | null>(null);
  const stored = useStoredImageUrl(removed ? null : storedPath, version);
  const pickedUrl = usePickedFileUrl(picked);
  const shown = pickedUrl ?? stored;
  const message = pickError ?? error;
  const state = picked
    ? `${picked.name} — saved with the form`
    : removed
      ? 'Removed when you save'
      : storedPath
        ? 'On file'
        : 'None';

  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1.5 text-[13px] font-medium text-fg">Signature</legend>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className={cn('min-w-0 truncate text-[12px]', picked ? 'text-accent' : 'text-fg-subtle')}>
          {state}
        </p>
        <div className="flex shrink-0 items-center gap-1">
          <label
            htmlFor={inputId}
            className={cn(
              'flex cursor-pointer items-center gap-1.5 rounded-md border border-line-strong bg-surface-raised px-2.5 py-1 text-xs font-medium text-fg hover:bg-surface-hover',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-focus',
              disabled && 'pointer-events-none opacity-55',
            )}
          >
            <ImageUp aria-hidden="true" className="size-3.5" />
            {storedPath || picked ? 'Replace signature' : 'Choose signature'}
            <input
              id={inputId}
              type="file"
              accept="image/png,image/jpeg"
              className="sr-only"
              disabled={disabled}
              aria-invalid={message ? true : undefined}
              aria-describedby={message ? errorId : undefined}
              onChange={(event) => {
                const file = event.target.files?.[0] ?? null;
                event.target.value = '';
                if (!file) return;
                const refusal = signatureFileError(file);
                setPickError(refusal);
                if (!refusal) onPick(file);
              }}
            />
          </label>
          {picked ? (
            <Button variant="ghost" size="sm" onClick={() => onPick(null)} disabled={disabled}>
              <Undo2 aria-hidden="true" className="size-3.5" /> Discard
            </Button>
          ) : storedPath && !removed ? (
            <Button variant="ghost" size="sm" onClick={() => onRemovedChange(true)} disabled={disabled}>
              <Trash2 aria-hidden="true" className="size-3.5" /> Remove
            </Button>
          ) : removed ? (
            <Button variant="ghost" size="sm" onClick={() => onRemovedChange(false)} disabled={disabled}>
              <Undo2 aria-hidden="true" className="size-3.5" /> Keep
            </Button>
          ) : null}
        </div>
      </div>
      {message ? (
        <p id={errorId} className="text-xs font-medium text-danger">
          {message}
        </p>
      ) : null}
      <p className="text-xs text-fg-subtle">
        PNG or JPEG, at most {MAX_SIGNATURE_BYTES / 1024 / 1024} MB; a dark signature on a white or
        transparent background prints best.
      </p>
      <SignatureBlockPreview
        imageUrl={shown}
        displayName={displayName}
        description={description}
        {...(whose ? { whose } : {})}
      />
    </fieldset>
  );
}
