import { FALLBACK_ERROR_MESSAGES, type TWorklistItem } from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RowSelectionState } from '@tanstack/react-table';
import { RefreshCw, Settings2 } from 'lucide-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Page } from '../../components/layout/page.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { tableSettingsOf, useSettings } from '../../stores/settings-store.ts';
import { visibleColumnIds } from '../../stores/worklist-table-settings.ts';
import { ConnectionIndicator } from '../realtime/connection-indicator.tsx';
import { useWorklistLiveUpdates } from './live/use-worklist-live-updates.ts';
import { useOpenItem } from '../tabs/open-tabs-bar.tsx';
import { useTurnaroundTargets } from '../../api/turnaround-targets.ts';
import { useItemTags } from './item-tags.tsx';
import { PaginationBar } from './pagination-bar.tsx';
import { StatusTabs } from './status-tabs.tsx';
import { SyncFromPacsButton } from './sync-from-pacs-button.tsx';
import { PAGE_SIZE_OPTIONS } from './worklist-columns.ts';
import { worklistApi, worklistKeys } from './worklist-api.ts';
import { WorklistFilters } from './worklist-filters.tsx';
import { WorklistTable } from './worklist-table.tsx';

// The column settings (with their drag-and-drop library) load when first wanted, not with the list:
// fetched as the pointer or focus reaches the Columns button, so the dialog opens without a wait.
const loadColumnSettings = () => import('./column-settings-dialog.tsx');
const ColumnSettingsDialog = lazy(() =>
  loadColumnSettings().then((m) => ({ default: m.ColumnSettingsDialog })),
);
import { useWorklistData } from './use-worklist-data.ts';
import { ArchiveDeleteHost } from '../dicom/archive-delete-host.tsx';

// What only a selection or a deletion needs (the bulk bar with its pickers and tag dialog, the
// confirmation dialog) loads when first used, not with the list.
const BulkActions = lazy(() => import('./bulk-actions.tsx').then((m) => ({ default: m.BulkActions })));
const DeleteStudyDialog = lazy(() =>
  import('./delete-study-dialog.tsx').then((m) => ({ default: m.DeleteStudyDialog })),
);

/** /worklist: the studies of the user's facilities, filtered, sorted, paged and live. */
export function WorklistPage() {
  const user = useAuth((state) => state.user);
  const userId = user?.id ?? '';
  const filters = useSettings((state) => state.worklistFilters);
  const group = useSettings((state) => state.worklistGroup);
  const pageSize = useSettings((state) => state.pageSizes.worklist);
  const table = useSettings((state) => tableSettingsOf(state, userId));
  const { setWorklistFilters, resetWorklistFilters, setWorklistGroup, setPageSize } = useSettings(
    (state) => state,
  );
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Mounted from the first opening on, so closing keeps the dialog's own exit behaviour.
  const [settingsUsed, setSettingsUsed] = useState(false);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [deleting, setDeleting] = useState<TWorklistItem | null>(null);
  const openItem = useOpenItem();
  const queryClient = useQueryClient();
  useWorklistLiveUpdates({ toasts: true });

  const data = useWorklistData({ filters, group, pageSize });
  const itemTags = useItemTags(userId);
  const turnaroundTargets = useTurnaroundTargets();
  const columns = useMemo(() => visibleColumnIds(table.worklistColumns), [table.worklistColumns]);
  const selected = data.page.items.filter((item) => selection[item.id]);

  const removeOne = useMutation({
    mutationFn: (item: TWorklistItem) => worklistApi.remove(item.id),
    onSuccess: async (_, item) => {
      notify('success', `Deleted the study of ${item.patient_name}`);
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: worklistKeys.all });
    },
    onError: (error) => notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.deleteWorklist)),
  });

  const changeFilters = (patch: Parameters<typeof setWorklistFilters>[0]): void => {
    setSelection({});
    setWorklistFilters(patch);
  };

  return (
    <Page
      wide
      title="Worklist"
      actions={
        <div className="flex items-center gap-2">
          <ConnectionIndicator />
          <SyncFromPacsButton />
          <Button variant="ghost" size="sm" onClick={data.refetch} aria-label="Refresh worklist">
            <RefreshCw
              aria-hidden="true"
              className={data.isFetching ? 'size-3.5 animate-spin' : 'size-3.5'}
            />
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onPointerEnter={() => void loadColumnSettings()}
            onFocus={() => void loadColumnSettings()}
            onClick={() => {
              setSettingsUsed(true);
              setSettingsOpen(true);
            }}
          >
            <Settings2 aria-hidden="true" className="size-3.5" />
            Columns
          </Button>
        </div>
      }
    >
      <StatusTabs
        value={group}
        counts={data.counts}
        onChange={(next) => {
          setSelection({});
          setWorklistGroup(next);
        }}
      />
      <WorklistFilters
        filters={filters}
        onChange={changeFilters}
        onReset={() => {
          setSelection({});
          resetWorklistFilters();
        }}
      />
      {selected.length > 0 ? (
        <Suspense fallback={null}>
          <BulkActions selected={selected} onDone={() => setSelection({})} />
        </Suspense>
      ) : null}
      <div className="relative">
        <WorklistTable
          items={data.page.items}
          turnaroundTargets={turnaroundTargets}
          columns={columns}
          sortBy={filters.sort_by}
          sortOrder={filters.sort_order}
          onSort={(sort_by, sort_order) => changeFilters({ sort_by, sort_order })}
          selection={selection}
          onSelectionChange={setSelection}
          quickAction={table.quickAction}
          viewer={table.defaultViewer}
          onOpen={openItem}
          onDelete={setDeleting}
          busy={data.isLoading}
          emptyText={data.failed ? 'The worklist could not be loaded.' : 'No studies match these filters.'}
          itemTags={itemTags}
        />
        {data.isLoading ? (
          <div className="flex items-center justify-center gap-2 py-10 text-[13px] text-fg-muted">
            <Spinner /> Loading worklist…
          </div>
        ) : null}
      </div>
      <PaginationBar
        label="Worklist"
        page={data.page}
        pageSize={pageSize}
        sizes={PAGE_SIZE_OPTIONS}
        onPageSize={(size) => setPageSize('worklist', size)}
        onOffset={(offset) => {
          setSelection({});
          data.setOffset(offset);
        }}
      />
      {userId && settingsUsed ? (
        <Suspense fallback={null}>
          <ColumnSettingsDialog userId={userId} open={settingsOpen} onOpenChange={setSettingsOpen} />
        </Suspense>
      ) : null}
      {deleting ? (
        <Suspense fallback={null}>
          <DeleteStudyDialog
            item={deleting}
            pending={removeOne.isPending}
            onCancel={() => setDeleting(null)}
            onDelete={(item) => removeOne.mutate(item)}
          />
        </Suspense>
      ) : null}
      <ArchiveDeleteHost />
    </Page>
  );
}
