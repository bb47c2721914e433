import { FileText, Paperclip, X } from 'lucide-react';
import { useId } from 'react';
import { UploadProgress } from '../../components/ui/upload-progress.tsx';

export const DOCUMENT_ACCEPT = 'application/pdf,image/jpeg,image/png';

function size(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export interface DocumentsFieldProps {
  files: File[];
  onChange: (files: File[]) => void;
  /** Upload progress 0–100 while sending, else null. */
  progress: number | null;
  disabled?: boolean;
}

/** Patient documents to upload (PDF, JPEG, PNG), with the upload's progress while sending. */
export function DocumentsField({ files, onChange, progress, disabled }: DocumentsFieldProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-[13px] font-medium text-fg">Documents</span>
      <label
        htmlFor={id}
        className="flex cursor-pointer items-center gap-2 rounded-md border border-dashed border-line-strong px-3 py-2.5 text-[13px] text-fg-muted hover:border-accent hover:text-fg"
      >
        <Paperclip aria-hidden="true" className="size-4" />
        Attach PDF, JPEG or PNG (up to 10 files, 20 MB each)
      </label>
      <input
        id={id}
        type="file"
        multiple
        accept={DOCUMENT_ACCEPT}
        className="sr-only"
        disabled={disabled}
        onChange={(event) => {
          onChange([...files, ...Array.from(event.target.files ?? [])].slice(0, 10));
          event.target.value = '';
        }}
      />
      {files.length > 0 ? (
        <ul className="flex flex-col gap-1">
          {files.map((file, index) => (
            <li
              key={`${file.name}-${index}`}
              className="flex items-center gap-2 rounded border border-line px-2 py-1 text-[12px] text-fg"
            >
              <FileText aria-hidden="true" className="size-3.5 text-fg-subtle" />
              <span className="min-w-0 flex-1 truncate">{file.name}</span>
              <span className="text-fg-subtle tabular-nums">{size(file.size)}</span>
              <button
                type="button"
                aria-label={`Remove ${file.name}`}
                disabled={disabled}
                onClick={() => onChange(files.filter((_, i) => i !== index))}
                className="rounded p-0.5 text-fg-subtle hover:bg-surface-hover hover:text-fg"
              >
                <X aria-hidden="true" className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <UploadProgress percent={progress} />
    </div>
  );
}
