import type { TArchiveTestResult, TPacsArchive, TPopulateResult } from '@ris/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CheckCircle2,
  HardDriveDownload,
  Pencil,
  Plug,
  Plus,
  RefreshCw,
  Trash2,
  XCircle,
} from 'lucide-react';
import { Fragment, useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { formatShortDateTime } from '../../components/format-date-time.ts';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../components/ui/cn.ts';
import { Dialog } from '../../components/ui/dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { ListTable, TD_CLASS, TH_CLASS } from '../templates/list-parts.tsx';
import { syncSummary } from '../worklist/sync-from-pacs-button.tsx';
import { ArchiveFormDialog } from './archive-form-dialog.tsx';
import {
  DELETE_ARCHIVE_FAILED,
  FETCH_ARCHIVES_FAILED,
  SYNC_ARCHIVE_FAILED,
  TEST_ARCHIVE_FAILED,
  archiveKeys,
  archivesApi,
} from './archives-api.ts';

type TOpen = { kind: 'create' } | { kind: 'edit' | 'delete'; archive: TPacsArchive } | null;

const when = (iso: string | null) => (iso ? formatShortDateTime(new Date(iso)) : null);

function Badge({ tone, children }: { tone: 'on' | 'off'; children: string }) {
  return (
    <span
      className={cn(
        'inline-flex rounded border px-1.5 py-px text-[11px] font-medium whitespace-nowrap',
        tone === 'on'
          ? 'border-emerald-500/40 bg-emerald-500/10 text-emerald-700 dark:text-emerald-300'
          : 'border-line-strong bg-surface-raised text-fg-muted',
      )}
    >
      {children}
    </span>
  );
}

/** Last success, last error (in red, with its time) and consecutive failures of an archive's sync. */
function SyncState({ archive }: { archive: TPacsArchive }) {
  const { sync } = archive;
  const success = when(sync.last_success_at);
  const failed = sync.last_error !== null && sync.last_error_at !== null;
  return (
    <div className="flex max-w-80 flex-col gap-0.5 text-xs">
      <span className="text-fg-muted">{success ? `Last success ${success}` : 'Never synchronised'}</span>
      {failed ? (
        <span className="flex flex-col text-danger" title={sync.last_error ?? undefined}>
          <span className="font-medium">
            Error {when(sync.last_error_at)}
            {sync.failure_count > 0 ? ` · ${sync.failure_count} failed in a row` : ''}
          </span>
          <span className="line-clamp-2 break-words">{sync.last_error}</span>
        </span>
      ) : null}
    </div>
  );
}

/** What a connection test answered, under the archive's row. */
function TestAnswer({ result }: { result: TArchiveTestResult }) {
  const Icon = result.ok ? CheckCircle2 : XCircle;
  return (
    <div
      role="status"
      className={cn(
        'flex items-start gap-2 rounded-md border px-3 py-2 text-xs',
        result.ok ? 'border-emerald-500/40 bg-emerald-500/10' : 'border-danger/50 bg-danger-soft',
      )}
    >
      <Icon
        aria-hidden="true"
        className={cn(
          'mt-px size-4 shrink-0',
          result.ok ? 'text-emerald-600 dark:text-emerald-300' : 'text-danger',
        )}
      />
      <div className="flex flex-col gap-0.5">
        <span className={cn('font-medium', result.ok ? 'text-fg' : 'text-danger')}>{result.message}</span>
        {result.details.checks.map((check) => (
          <span key={check.target} className="text-fg-muted">
            {check.url} — {check.message}
          </span>
        ))}
        <span className="text-fg-subtle">{result.details.elapsed_ms} ms</span>
      </div>
    </div>
  );
}

/** The toast of Sync now: what came in (the worklist's own words), or why this archive failed. */
function syncToast(archive: TPacsArchive, answer: TPopulateResult) {
  const outcome = answer.archives.find((item) => item.id === archive.id);
  if (outcome && !outcome.ok) {
    const error = outcome.error ?? SYNC_ARCHIVE_FAILED;
    // The sync's message usually names the archive already.
    notify('error', error.startsWith(archive.name) ? error : `${archive.name}: ${error}`);
  } else notify('success', `${archive.name}: ${syncSummary(answer)}`);
}

/**
 * The Archives tab of /organisation (administrators): the organisation's image archives with their
 * sync state; add, edit, test the connection, sync now, delete.
 */
export function ArchivesPanel() {
  const queryClient = useQueryClient();
  const facilities = useAuth((state) => state.facilities);
  const [open, setOpen] = useState<TOpen>(null);
  const [tests, setTests] = useState<Record<string, TArchiveTestResult>>({});
  const list = useQuery({
    queryKey: archiveKeys.list(),
    queryFn: ({ signal }) => archivesApi.list(signal),
    retry: false,
  });
  const archives = list.data?.archives ?? [];

  const test = useMutation({
    mutationFn: (archive: TPacsArchive) => archivesApi.test(archive.id),
    onSuccess: (result, archive) => setTests((current) => ({ ...current, [archive.id]: result })),
    onError: (error) => notify('error', errorMessage(error, TEST_ARCHIVE_FAILED)),
  });
  const sync = useMutation({
    mutationFn: (archive: TPacsArchive) => archivesApi.syncNow(archive.id),
    onSuccess: async (answer, archive) => {
      syncToast(archive, answer);
      await queryClient.invalidateQueries({ queryKey: archiveKeys.all });
    },
    onError: async (error) => {
      notify('error', errorMessage(error, SYNC_ARCHIVE_FAILED));
      await queryClient.invalidateQueries({ queryKey: archiveKeys.all });
    },
  });
  const remove = useMutation({
    mutationFn: (archive: TPacsArchive) => archivesApi.remove(archive.id),
    onSuccess: async (_answer, archive) => {
      notify('success', `${archive.name} was deleted`);
      setOpen(null);
      await queryClient.invalidateQueries({ queryKey: archiveKeys.all });
    },
    onError: (error) => notify('error', errorMessage(error, DELETE_ARCHIVE_FAILED)),
  });

  const emptyText = list.isError
    ? errorMessage(list.error, FETCH_ARCHIVES_FAILED)
    : 'No image archive yet. Add the PACS your modalities send to, and its studies reach the worklist by themselves.';

  return (
    <section aria-label="Image archives" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <p className="max-w-2xl text-[13px] text-fg-muted">
          Studies arrive from these archives, and the viewer, downloads and deletes read them. Passwords and
          tokens stay on the server.
        </p>
        <Button className="ml-auto" onClick={() => setOpen({ kind: 'create' })}>
          <Plus aria-hidden="true" className="size-4" />
          Add archive
        </Button>
      </div>

      <ListTable
        caption="Image archives"
        busy={list.isFetching && !list.data}
        isEmpty={archives.length === 0}
        emptyText={<span role={list.isError ? 'alert' : undefined}>{emptyText}</span>}
        head={
          <>
            {['Archive', 'Facilities', 'Status', 'Sync'].map((heading) => (
              <th key={heading} scope="col" className={TH_CLASS}>
                {heading}
              </th>
            ))}
            <th scope="col" className={cn(TH_CLASS, 'text-right')}>
              <span className="sr-only">Actions</span>
            </th>
          </>
        }
      >
        {archives.map((archive) => {
          const result = tests[archive.id];
          const testing = test.isPending && test.variables.id === archive.id;
          const syncing = sync.isPending && sync.variables.id === archive.id;
          const rowClass = cn(
            'align-top hover:bg-surface-hover/60',
            !result && 'border-b border-line last:border-b-0',
          );
          return (
            <Fragment key={archive.id}>
              <tr className={rowClass}>
                <td className={cn(TD_CLASS, 'max-w-80')}>
                  <button
                    type="button"
                    onClick={() => setOpen({ kind: 'edit', archive })}
                    className="block max-w-full truncate text-left font-medium text-fg hover:text-accent hover:underline"
                  >
                    {archive.name}
                  </button>
                  <span className="block truncate text-xs text-fg-muted" title={archive.dicomweb_url}>
                    {archive.dicomweb_url}
                  </span>
                  <span className="block truncate text-[11px] text-fg-subtle">
                    {[
                      archive.kind === 'orthanc' ? 'Orthanc' : 'DICOMweb',
                      archive.orthanc_url ? `REST ${archive.orthanc_url}` : null,
                      archive.auth_kind === 'none'
                        ? 'no sign-in'
                        : archive.auth_kind === 'basic'
                          ? `user ${archive.username ?? ''}`
                          : 'token',
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                </td>
                <td className={cn(TD_CLASS, 'max-w-48 text-fg-muted')}>
                  {archive.facilities.length === 0
                    ? '—'
                    : archive.facilities
                        .map((facility) =>
                          facility.facility_id === archive.default_facility_id
                            ? `${facility.facility_name} (default)`
                            : facility.facility_name,
                        )
                        .join(', ')}
                </td>
                <td className={TD_CLASS}>
                  <Badge tone={archive.enabled ? 'on' : 'off'}>
                    {archive.enabled ? 'Enabled' : 'Disabled'}
                  </Badge>
                  <span className="mt-0.5 block text-[11px] whitespace-nowrap text-fg-subtle">
                    every {archive.poll_interval_seconds} s
                  </span>
                </td>
                <td className={TD_CLASS}>
                  <SyncState archive={archive} />
                </td>
                <td className={cn(TD_CLASS, 'w-px text-right whitespace-nowrap')}>
                  <div className="flex justify-end gap-1.5">
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={testing}
                      onClick={() => test.mutate(archive)}
                      aria-label={`Test connection to ${archive.name}`}
                    >
                      {testing ? <Spinner /> : <Plug aria-hidden="true" className="size-3.5" />}
                      Test connection
                    </Button>
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={syncing || !archive.enabled}
                      onClick={() => sync.mutate(archive)}
                      aria-label={`Sync ${archive.name} now`}
                    >
                      {syncing ? <Spinner /> : <RefreshCw aria-hidden="true" className="size-3.5" />}
                      Sync now
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setOpen({ kind: 'edit', archive })}
                      aria-label={`Edit ${archive.name}`}
                    >
                      <Pencil aria-hidden="true" className="size-3.5" />
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      className="hover:text-danger"
                      onClick={() => setOpen({ kind: 'delete', archive })}
                      aria-label={`Delete ${archive.name}`}
                    >
                      <Trash2 aria-hidden="true" className="size-3.5" />
                    </Button>
                  </div>
                </td>
              </tr>
              {result ? (
                <tr className="border-b border-line last:border-b-0">
                  <td colSpan={5} className="px-3 pb-3">
                    <TestAnswer result={result} />
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        })}
      </ListTable>
      {archives.length === 0 && !list.isFetching && !list.isError ? (
        <p className="flex items-center gap-2 text-xs text-fg-subtle">
          <HardDriveDownload aria-hidden="true" className="size-4" />
          Without an archive, the server’s PACS_DICOMWEB_URL (if set) serves the viewer.
        </p>
      ) : null}

      {open?.kind === 'create' || open?.kind === 'edit' ? (
        <ArchiveFormDialog
          archive={open.kind === 'edit' ? open.archive : null}
          facilities={facilities}
          onClose={() => setOpen(null)}
        />
      ) : null}
      {open?.kind === 'delete' ? (
        <Dialog
          open
          onOpenChange={(next) => !next && !remove.isPending && setOpen(null)}
          title={`Delete ${open.archive.name}?`}
          description="The RIS stops reading this archive. This cannot be undone."
          footer={
            <>
              <Button variant="secondary" onClick={() => setOpen(null)} disabled={remove.isPending}>
                Cancel
              </Button>
              <Button
                variant="danger"
                onClick={() => remove.mutate(open.archive)}
                disabled={remove.isPending}
              >
                {remove.isPending ? <Spinner /> : null}
                Delete
              </Button>
            </>
          }
        >
          <p className="text-[13px] text-fg-muted">
            Its studies stay on the worklist with their reports; nothing is deleted in the archive itself.
          </p>
        </Dialog>
      ) : null}
    </section>
  );
}
