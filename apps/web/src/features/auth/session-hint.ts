/**
 * Whether this browser may hold a refresh session. The refresh cookie is httpOnly, so the app notes
 * here when a sign-in succeeds and when the session ends; without the note, start-up skips the
 * refresh call and a visitor sees the sign-in screen without waiting for a round trip (or for the
 * schemas that would read its 401). A wrong note costs one refresh call, or one sign-in.
 */
export interface SessionHint {
  present(): boolean;
  set(present: boolean): void;
}

const KEY = 'ris-session-hint';

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    // Storage disabled by the browser's privacy settings.
    return undefined;
  }
}

/** The note in localStorage (shared by the tabs, kept across restarts like the cookie). Where there is
 * no storage the app cannot know, so it always asks the server. */
export const browserSessionHint: SessionHint = {
  present: () => {
    const store = storage();
    return store === undefined || store.getItem(KEY) === '1';
  },
  set: (present) => {
    try {
      if (present) storage()?.setItem(KEY, '1');
      else storage()?.removeItem(KEY);
    } catch {
      // A full or disabled storage: the next start-up asks the server.
    }
  },
};
