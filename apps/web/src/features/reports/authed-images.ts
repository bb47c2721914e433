import { apiClient } from '../../api/client.ts';
import { apiRelativePath } from '../../api/http.ts';

export type FetchBlob = (relativePath: string) => Promise<Blob>;

/**
 * Object URLs of images served by our API with the bearer token (key images in the report, their
 * thumbnails): an <img> cannot send the token itself. Each path is fetched once and shared; `clear`
 * revokes them all (when the reporting screen closes).
 */
export function createAuthedImageCache(fetchBlob: FetchBlob) {
  const urls = new Map<string, Promise<string>>();
  const created: string[] = [];
  return {
    /** An object URL for an `/api/v1/...` path; rejects for any other source. */
    url(src: string): Promise<string> {
      const cached = urls.get(src);
      if (cached) return cached;
      const relative = apiRelativePath(src);
      if (!relative) return Promise.reject(new Error(`not an API image: ${src}`));
      const loading = fetchBlob(relative).then((blob) => {
        const url = URL.createObjectURL(blob);
        created.push(url);
        return url;
      });
      // A failed load is not remembered: the next view of the image tries again.
      loading.catch(() => urls.delete(src));
      urls.set(src, loading);
      return loading;
    },
    /** Forgets one path (an image deleted from the report). */
    forget(src: string): void {
      urls.delete(src);
    },
    clear(): void {
      for (const url of created.splice(0)) URL.revokeObjectURL(url);
      urls.clear();
    },
  };
}

export type AuthedImageCache = ReturnType<typeof createAuthedImageCache>;

/** The app's cache, loading through the API client (token renewal included). */
export const authedImages = createAuthedImageCache((path) => apiClient.blob('GET', path));
