import type { StateStorage } from 'zustand/middleware';

/** Keys under which the stores persist themselves in sessionStorage. */
export const STORAGE_KEYS = { settings: 'ris-settings' } as const;

/** A Storage-like map in memory; what the stores use where sessionStorage does not exist (Node, tests). */
export interface MemoryStorage extends StateStorage {
  getItem(name: string): string | null;
  setItem(name: string, value: string): void;
  removeItem(name: string): void;
  clear(): void;
}

export function createMemoryStorage(): MemoryStorage {
  const items = new Map<string, string>();
  return {
    getItem: (name) => items.get(name) ?? null,
    setItem: (name, value) => void items.set(name, value),
    removeItem: (name) => void items.delete(name),
    clear: () => items.clear(),
  };
}

function browserSessionStorage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    // Access can throw (storage disabled by the browser's privacy settings).
    return undefined;
  }
}

let fallback: MemoryStorage | undefined;

/** sessionStorage when the platform has it, else one shared in-memory storage. */
export function sessionOrMemoryStorage(): StateStorage & Pick<MemoryStorage, 'clear'> {
  const storage = browserSessionStorage();
  if (storage) return storage;
  fallback ??= createMemoryStorage();
  return fallback;
}
