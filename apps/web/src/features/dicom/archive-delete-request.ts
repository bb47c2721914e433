// Which worklist item the "Delete from archive" confirmation is about. The row menu that asks
// closes (and unmounts) at once, so the question lives here and ArchiveDeleteHost shows it.
import type { TWorklistItem } from '@ris/domain';

type TListener = () => void;

let current: TWorklistItem | null = null;
const listeners = new Set<TListener>();

function set(item: TWorklistItem | null): void {
  current = item;
  for (const listener of listeners) listener();
}

export const archiveDeleteRequest = {
  ask: (item: TWorklistItem) => set(item),
  close: () => set(null),
  current: () => current,
  subscribe(listener: TListener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
