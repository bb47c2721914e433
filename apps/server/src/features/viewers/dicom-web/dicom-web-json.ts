// The archive's own URLs inside DICOM JSON (BulkDataURI of large attributes, Retrieve URL (0008,1190)
// and any other UR value) must not reach the browser: those under the archive's DICOMweb root are
// rewritten to the same path under the proxy, other absolute ones are dropped. Relative URIs stay
// (they resolve against the proxy's own URL, whose dot segments the proxy refuses).

type TAttribute = { vr?: unknown; Value?: unknown; BulkDataURI?: unknown };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The URL as the proxy serves it, or null when it must be dropped. */
export function proxied(url: string, archiveRoot: string, proxyRoot: string): string | null {
  if (url.startsWith(`${archiveRoot}/`)) return `${proxyRoot}${url.slice(archiveRoot.length)}`;
  if (SCHEME.test(url) || url.startsWith('/') || url.startsWith('\\')) return null;
  return url;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rewriteDataset(dataset: Record<string, unknown>, archiveRoot: string, proxyRoot: string): void {
  for (const [tag, value] of Object.entries(dataset)) {
    if (!isRecord(value)) continue;
    const attribute = value as TAttribute;
    if (typeof attribute.BulkDataURI === 'string') {
      const url = proxied(attribute.BulkDataURI, archiveRoot, proxyRoot);
      if (url === null) delete attribute.BulkDataURI;
      else attribute.BulkDataURI = url;
    }
    if (!Array.isArray(attribute.Value)) continue;
    if (attribute.vr === 'UR') {
      const urls = attribute.Value.map((item) =>
        typeof item === 'string' ? proxied(item, archiveRoot, proxyRoot) : null,
      );
      if (urls.some((url) => url === null)) Reflect.deleteProperty(dataset, tag);
      else attribute.Value = urls;
    } else if (attribute.vr === 'SQ') {
      for (const item of attribute.Value) if (isRecord(item)) rewriteDataset(item, archiveRoot, proxyRoot);
    }
  }
}

/**
 * Rewrites, in place, the archive URLs of a DICOM JSON answer (an array of datasets, or one), and
 * returns it. `archiveRoot` and `proxyRoot` have no trailing slash.
 */
export function rewriteArchiveUrls<T>(json: T, archiveRoot: string, proxyRoot: string): T {
  const datasets: unknown[] = Array.isArray(json) ? json : [json];
  for (const dataset of datasets) if (isRecord(dataset)) rewriteDataset(dataset, archiveRoot, proxyRoot);
  return json;
}
