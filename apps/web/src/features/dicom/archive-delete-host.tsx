import { lazy, Suspense, useSyncExternalStore } from 'react';
import { archiveDeleteRequest } from './archive-delete-request.ts';

const ArchiveDeleteDialog = lazy(() =>
  import('./archive-delete-dialog.tsx').then((m) => ({ default: m.ArchiveDeleteDialog })),
);

/** Shows the "Delete from archive" confirmation when a row menu asks for it (loaded at first use). */
export function ArchiveDeleteHost() {
  const item = useSyncExternalStore(archiveDeleteRequest.subscribe, archiveDeleteRequest.current);
  if (!item) return null;
  return (
    <Suspense fallback={null}>
      <ArchiveDeleteDialog key={item.id} item={item} onClose={archiveDeleteRequest.close} />
    </Suspense>
  );
}
