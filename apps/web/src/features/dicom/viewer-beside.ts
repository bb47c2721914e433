// The viewer in a second window beside the report editor: one window named 'ris-viewer' (opening
// another study reuses it), placed on the right half of the screen. Whether each new study opens
// there by itself is remembered per user in this browser's localStorage (a preference document
// field would need the preferences schema, API and form to change with it).
import { useCallback, useSyncExternalStore } from 'react';

export const VIEWER_WINDOW_NAME = 'ris-viewer';

const storageKey = (userId: string) => `ris.open-viewer-beside-editor.${userId}`;
const listeners = new Set<() => void>();

function readPreference(userId: string | undefined): boolean {
  if (!userId) return false;
  try {
    return window.localStorage.getItem(storageKey(userId)) === 'true';
  } catch {
    return false;
  }
}

/** open_viewer_beside_editor of a user: read and written in localStorage, shared by every screen. */
export function useOpenViewerBeside(userId: string | undefined): [boolean, (value: boolean) => void] {
  const subscribe = useCallback((listener: () => void) => {
    listeners.add(listener);
    window.addEventListener('storage', listener);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', listener);
    };
  }, []);
  const value = useSyncExternalStore(subscribe, () => readPreference(userId));
  const set = useCallback(
    (next: boolean) => {
      if (!userId) return;
      try {
        window.localStorage.setItem(storageKey(userId), String(next));
      } catch {
        // Storage full or blocked: the choice lasts until the page closes.
      }
      for (const listener of listeners) listener();
    },
    [userId],
  );
  return [value, set];
}

type TScreen = Pick<Screen, 'availWidth' | 'availHeight'> & { availLeft?: number; availTop?: number };

/** window.open features placing the viewer on the right half of the screen (at least 640 px wide). */
export function besideFeatures(screen: TScreen): string {
  const left0 = screen.availLeft ?? 0;
  const top = screen.availTop ?? 0;
  const width = Math.min(screen.availWidth, Math.max(640, Math.floor(screen.availWidth / 2)));
  const left = left0 + screen.availWidth - width;
  return `popup,left=${left},top=${top},width=${width},height=${screen.availHeight}`;
}

/** A viewer link as an absolute http(s) URL (the built-in viewer's links are paths), else null. */
export function webViewerUrl(url: string, base: string): string | null {
  try {
    const resolved = new URL(url, base);
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.toString() : null;
  } catch {
    return null;
  }
}

type TBrowser = {
  open: (url: string, target: string, features: string) => Window | null;
  location: { href: string };
  screen: TScreen;
};

/**
 * Opens (or points) the viewer window beside the editor. False when the link is not a web link or
 * the browser blocked the window. The viewer gets no handle on this page (opener cleared).
 */
export function openViewerBeside(url: string, browser: TBrowser = window): boolean {
  const target = webViewerUrl(url, browser.location.href);
  if (!target) return false;
  const opened = browser.open(target, VIEWER_WINDOW_NAME, besideFeatures(browser.screen));
  if (!opened) return false;
  try {
    opened.opener = null;
  } catch {
    // Another origin's window: nothing to clear from here.
  }
  return true;
}
