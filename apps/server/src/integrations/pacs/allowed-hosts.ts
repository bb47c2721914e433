/**
 * Whether an archive URL's host is one the server allows (PACS_ALLOWED_HOSTS): an exact name or
 * address, or '*.domain' for any name under it; every host when the list is null.
 */
export function archiveHostAllowed(url: string, allowed: readonly string[] | null): boolean {
  if (allowed === null) return true;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return allowed.some((entry) =>
    entry.startsWith('*.') ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry,
  );
}
