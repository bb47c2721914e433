import { maySyncFromPacs, ZPopulateResult, type TPopulateResult } from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CloudDownload } from 'lucide-react';
import { errorMessage } from '../../api/api-error.ts';
import { apiClient } from '../../api/client.ts';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { worklistKeys } from './worklist-api.ts';

/** What a pull brought, in a sentence ("2 new studies, 1 updated" / "Nothing new"). */
export function syncSummary(result: TPopulateResult): string {
  const parts = [
    result.added > 0 ? `${result.added} new ${result.added === 1 ? 'study' : 'studies'}` : '',
    result.updated > 0 ? `${result.updated} updated` : '',
    result.deleted > 0 ? `${result.deleted} removed from the archive` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'Nothing new in the archive';
}

/** "Sync from PACS" (GET /worklist/populate/worklist), for the admins who may pull. */
export function SyncFromPacsButton() {
  const role = useAuth((state) => state.user?.role);
  const queryClient = useQueryClient();
  const sync = useMutation({
    mutationFn: async () => ZPopulateResult.parse(await apiClient.get('/worklist/populate/worklist')),
    onSuccess: async (result) => {
      const failed = result.archives.filter((archive) => !archive.ok);
      if (result.archives.length === 0) notify('info', 'No image archive is set up for your facilities yet.');
      else notify(failed.length > 0 ? 'warning' : 'success', syncSummary(result));
      for (const archive of failed) notify('error', archive.error ?? `${archive.name}: the sync failed`);
      await queryClient.invalidateQueries({ queryKey: worklistKeys.all });
    },
    onError: (error) => notify('error', errorMessage(error, 'Failed to sync from the PACS')),
  });
  if (!maySyncFromPacs(role)) return null;
  return (
    <Button variant="secondary" size="sm" disabled={sync.isPending} onClick={() => sync.mutate()}>
      <CloudDownload aria-hidden="true" className={sync.isPending ? 'size-3.5 animate-pulse' : 'size-3.5'} />
      {sync.isPending ? 'Syncing…' : 'Sync from PACS'}
    </Button>
  );
}
