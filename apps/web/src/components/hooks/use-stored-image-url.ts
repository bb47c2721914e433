import { useEffect, useState } from 'react';
import { apiClient } from '../../api/client.ts';
import { apiRelativePath } from '../../api/http.ts';

/** A stored image (an `/api/v1/...` path), fetched with the bearer token. */
export function fetchStoredImage(path: string, signal?: AbortSignal): Promise<Blob> {
  const relative = apiRelativePath(path);
  if (relative === null) return Promise.reject(new Error(`not an API path: ${path}`));
  return apiClient.blob('GET', relative, { signal });
}

/**
 * An object URL of a stored image (a letterhead, a signature: an `/api/v1/...` path an <img> cannot
 * load itself, as it needs the bearer token). `version` (the owner's updated_at) loads a replaced
 * image afresh; null while loading, when there is none, or when it could not be loaded (the screen
 * then shows the empty space).
 */
export function useStoredImageUrl(path: string | null, version: string): string | null {
  const key = path ? `${path}#${version}` : null;
  const [loaded, setLoaded] = useState<{ key: string; url: string } | null>(null);
  useEffect(() => {
    if (!path || !key) return;
    const controller = new AbortController();
    let created: string | null = null;
    fetchStoredImage(path, controller.signal)
      .then((blob) => {
        created = URL.createObjectURL(blob);
        setLoaded({ key, url: created });
      })
      .catch(() => {
        // Shown as the empty space; the upload controls still work.
      });
    return () => {
      controller.abort();
      if (created) URL.revokeObjectURL(created);
    };
  }, [path, key]);
  return loaded && loaded.key === key ? loaded.url : null;
}
