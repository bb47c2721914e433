import { MAX_SUPPORT_FILE_BYTES, MAX_SUPPORT_FILES } from '@ris/domain';

/** What the support form accepts: screenshots and documents the server can check by content. */
export const SUPPORT_ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/pdf'] as const;
export const SUPPORT_ATTACHMENT_ACCEPT = SUPPORT_ATTACHMENT_TYPES.join(',');
const TYPE_LABEL = 'PNG, JPEG, WebP or PDF';

const megabytes = (bytes: number) => `${Math.floor(bytes / 1024 / 1024)} MB`;

/** A file's size for people: "820 KB", "3.4 MB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function typeOf(file: File): string {
  if (file.type) return file.type;
  // Some systems send no type for a known extension; the server checks the content anyway.
  const extension = file.name.toLowerCase().split('.').pop() ?? '';
  return (
    { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', pdf: 'application/pdf' }[
      extension
    ] ?? ''
  );
}

export interface TAttachmentCheck {
  /** The attachments after adding the acceptable new files (same name and size: added once). */
  files: File[];
  /** One sentence per refused file. */
  errors: string[];
}

/**
 * Adds picked files to the attachments with the server's limits checked first (MAX_SUPPORT_FILES
 * files of at most MAX_SUPPORT_FILE_BYTES, of an accepted type), so a refusal is immediate and names
 * the file.
 */
export function addAttachments(current: readonly File[], picked: readonly File[]): TAttachmentCheck {
  const files = [...current];
  const errors: string[] = [];
  for (const file of picked) {
    if (files.some((other) => other.name === file.name && other.size === file.size)) continue;
    if (!(SUPPORT_ATTACHMENT_TYPES as readonly string[]).includes(typeOf(file))) {
      errors.push(`${file.name}: attach a ${TYPE_LABEL} file`);
    } else if (file.size === 0) {
      errors.push(`${file.name}: the file is empty`);
    } else if (file.size > MAX_SUPPORT_FILE_BYTES) {
      errors.push(`${file.name}: each file must be at most ${megabytes(MAX_SUPPORT_FILE_BYTES)}`);
    } else if (files.length >= MAX_SUPPORT_FILES) {
      errors.push(`${file.name}: at most ${MAX_SUPPORT_FILES} files may be attached`);
    } else {
      files.push(file);
    }
  }
  return { files, errors };
}
