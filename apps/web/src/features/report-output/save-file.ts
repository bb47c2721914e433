/**
 * How long an object URL handed to a download stays valid. The browser reads the blob after the
 * click returns; revoking at once can cancel the download in some browsers (FileSaver.js waits 40 s).
 */
const REVOKE_AFTER_MS = 40_000;

/** Saves a blob as a file the browser downloads under `fileName` (an <a download> click). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
