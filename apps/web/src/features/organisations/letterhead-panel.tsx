import { LETTERHEAD_MEDIA_TYPES, MAX_LETTERHEAD_BYTES, type TFacilityDetails } from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ImageUp, Trash2, Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { UploadProgress } from '../../components/ui/upload-progress.tsx';
import { notify } from '../../stores/app-store.ts';
import { fileSize } from '../support/support-attachments.ts';
import type { TLetterheadPart, TPickedImagesControl } from './object-urls.ts';
import { organisationApi, organisationKeys, type TLetterheadUpload } from './organisation-api.ts';

const FAILED = 'Failed to update the letterhead';

/** Why a picked letterhead image is refused before upload, or null (PNG or JPEG, at most 2 MB). */
export function letterheadFileError(file: File): string | null {
  if (!(LETTERHEAD_MEDIA_TYPES as readonly string[]).includes(file.type)) {
    return `${file.name}: choose a PNG or JPEG image`;
  }
  if (file.size > MAX_LETTERHEAD_BYTES) {
    return `${file.name}: the image must be at most ${MAX_LETTERHEAD_BYTES / 1024 / 1024} MB`;
  }
  return null;
}

interface ImageRowProps {
  part: TLetterheadPart;
  stored: boolean;
  picked: File | null;
  error: string | null;
  busy: boolean;
  onPick: (file: File) => void;
  onRemove: () => void;
}

function ImageRow({ part, stored, picked, error, busy, onPick, onRemove }: ImageRowProps) {
  const inputId = useId();
  const name = part === 'header' ? 'Header image' : 'Footer image';
  const state = picked
    ? `${picked.name} (${fileSize(picked.size)}) — not uploaded yet`
    : stored
      ? 'Uploaded'
      : 'None';
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="text-[13px] font-medium text-fg">{name}</p>
          <p className={cn('truncate text-[12px]', picked ? 'text-accent' : 'text-fg-subtle')}>{state}</p>
        </div>
        <div className="flex shrink-0 items-center gap-1">
          <label
            htmlFor={inputId}
            className={cn(
              'flex cursor-pointer items-center gap-1.5 rounded-md border border-line-strong bg-surface-raised px-2.5 py-1 text-xs font-medium text-fg hover:bg-surface-hover',
              busy && 'pointer-events-none opacity-55',
            )}
          >
            <ImageUp aria-hidden="true" className="size-3.5" /> Choose {part}
          </label>
          <input
            id={inputId}
            type="file"
            accept={LETTERHEAD_MEDIA_TYPES.join(',')}
            className="sr-only"
            disabled={busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) onPick(file);
            }}
          />
          {picked || stored ? (
            <Button
              variant="ghost"
              size="sm"
              disabled={busy}
              aria-label={`Remove ${part} image`}
              onClick={onRemove}
            >
              <Trash2 aria-hidden="true" className="size-3.5" />
            </Button>
          ) : null}
        </div>
      </div>
      {error ? (
        <p role="alert" className="text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export interface LetterheadPanelProps {
  facility: TFacilityDetails;
  /** The images picked and not uploaded yet (the page's, so its preview shows them). */
  images: TPickedImagesControl;
}

/**
 * One facility's letterhead: printed or not, header and footer images (PNG or JPEG, at most 2 MB,
 * checked again by content on the server). A picked image shows in the preview at once and is sent
 * with "Upload letterhead" (with progress); a stored one is removed at once.
 */
export function LetterheadPanel({ facility, images }: LetterheadPanelProps) {
  const { picked } = images;
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<Record<TLetterheadPart, string | null>>({
    header: null,
    footer: null,
  });
  const [progress, setProgress] = useState<number | null>(null);
  const settle = (updated: TFacilityDetails) => {
    queryClient.setQueryData(organisationKeys.facility(updated.id), updated);
  };

  const upload = useMutation({
    mutationFn: (change: TLetterheadUpload) =>
      organisationApi.uploadLetterhead(facility.id, change, setProgress),
    onSuccess: (updated, change) => {
      settle(updated);
      if (change.header || change.footer) {
        images.clear();
        notify('success', 'Letterhead uploaded');
      } else {
        notify('success', updated.letterhead_enabled ? 'Letterhead enabled' : 'Letterhead disabled');
      }
    },
    onError: (error) => notify('error', errorMessage(error, FAILED)),
    onSettled: () => setProgress(null),
  });
  const remove = useMutation({
    mutationFn: (part: TLetterheadPart) => organisationApi.deleteLetterhead(facility.id, part),
    onSuccess: (updated, part) => {
      settle(updated);
      notify('success', part === 'header' ? 'Header image removed' : 'Footer image removed');
    },
    onError: (error) => notify('error', errorMessage(error, FAILED)),
  });
  const busy = upload.isPending || remove.isPending;

  const pick = (part: TLetterheadPart, file: File) => {
    const error = letterheadFileError(file);
    setErrors({ ...errors, [part]: error });
    if (!error) images.set(part, file);
  };
  const removeImage = (part: TLetterheadPart) => {
    setErrors({ ...errors, [part]: null });
    if (picked[part]) images.set(part, null);
    else remove.mutate(part);
  };
  const on = facility.letterhead_enabled;

  return (
    <section aria-label={`Letterhead of ${facility.name}`} className="flex flex-col gap-3">
      <Switch
        checked={on}
        disabled={busy}
        onCheckedChange={(enable) => upload.mutate({ enable })}
        className="flex items-center justify-between gap-3 rounded-md border border-line px-3 py-2 text-left hover:bg-surface-hover"
      >
        <span>
          <span className="block text-[13px] font-medium text-fg">Print the letterhead</span>
          <span className="block text-[12px] text-fg-subtle">
            Off: documents leave the header and footer space blank for pre-printed paper.
          </span>
        </span>
      </Switch>
      {(['header', 'footer'] as const).map((part) => (
        <ImageRow
          key={part}
          part={part}
          stored={(part === 'header' ? facility.header_file_url : facility.footer_file_url) !== null}
          picked={picked[part]?.file ?? null}
          error={errors[part]}
          busy={busy}
          onPick={(file) => pick(part, file)}
          onRemove={() => removeImage(part)}
        />
      ))}
      <p className="text-[12px] text-fg-subtle">PNG or JPEG, at most 2 MB each; drawn on every page.</p>
      <UploadProgress percent={progress} />
      {picked.header || picked.footer ? (
        <div className="flex justify-end gap-2">
          <Button variant="ghost" disabled={busy} onClick={images.clear}>
            Discard
          </Button>
          <Button
            disabled={busy}
            onClick={() =>
              upload.mutate({ header: picked.header?.file ?? null, footer: picked.footer?.file ?? null })
            }
          >
            {upload.isPending ? <Spinner /> : <Upload aria-hidden="true" className="size-4" />}
            Upload letterhead
          </Button>
        </div>
      ) : null}
    </section>
  );
}
