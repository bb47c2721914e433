import { FALLBACK_ERROR_MESSAGES, type TReport, type TWorklistItem } from '@ris/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FilePenLine } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notify } from '../../stores/app-store.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { FinalReport } from './final-report.tsx';
import { reportActions } from './offered-actions.ts';
import { ReportWorkspace } from './report-workspace.tsx';
import { reportKeys, reportsApi } from './reports-api.ts';

/** GET the study's report; null when it has none yet (404). */
async function fetchReport(worklistId: string, signal: AbortSignal): Promise<TReport | null> {
  try {
    return await reportsApi.get(worklistId, signal);
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

/**
 * The study's report: created on first visit by someone who may write it, then the collaborative
 * workspace; once final, the read-only report with its addenda.
 */
export function ReportSection({ study }: { study: TWorklistItem }) {
  const user = useAuth((state) => state.user);
  const queryClient = useQueryClient();
  const userId = user?.id ?? '';
  const key = reportKeys.report(study.id);
  const report = useQuery({ queryKey: key, queryFn: ({ signal }) => fetchReport(study.id, signal) });
  // What the server says this user may do with the study and its report.
  const permissions = reportActions(study, report.data ?? null);

  const create = useMutation({
    mutationFn: () => reportsApi.create(study.id, userId),
    onSuccess: (created) => queryClient.setQueryData(key, created),
    onError: (error) => notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.createReport)),
  });
  const { mutate: createReport, isIdle: notCreatedYet } = create;
  useEffect(() => {
    if (report.data === null && permissions.edit && notCreatedYet && userId) createReport();
  }, [report.data, permissions.edit, notCreatedYet, userId, createReport]);

  useEffect(() => {
    if (report.isError) notify('error', errorMessage(report.error, FALLBACK_ERROR_MESSAGES.fetchReport));
  }, [report.isError, report.error]);

  // A status change (submitted, returned, finalized — here or elsewhere) changes what the report is.
  const seenStatus = useRef(study.status);
  useEffect(() => {
    if (seenStatus.current === study.status) return;
    seenStatus.current = study.status;
    void queryClient.invalidateQueries({ queryKey: reportKeys.report(study.id) });
  }, [queryClient, study.id, study.status]);

  if (report.isPending || (report.data === null && permissions.edit && !create.isError)) {
    return (
      <p className="flex items-center gap-2 text-[13px] text-fg-muted">
        <Spinner /> Loading the report…
      </p>
    );
  }
  if (report.isError) {
    return (
      <EmptyState
        icon={FilePenLine}
        title={errorMessage(report.error, FALLBACK_ERROR_MESSAGES.fetchReport)}
      />
    );
  }
  const data = report.data;
  if (!data && user?.role === 'REFERRING_PHYSICIAN' && study.status !== 'FINAL') {
    // A referring physician reads a report once it is final: one being written is not shown yet.
    return (
      <EmptyState icon={FilePenLine} title="The report is not final yet.">
        {study.status === 'TO_READ' || study.status === 'ORDERED'
          ? 'The study is waiting for a radiologist.'
          : 'It will show here once the radiologist has signed it.'}
      </EmptyState>
    );
  }
  if (!data) {
    return (
      <EmptyState icon={FilePenLine} title="No report has been written yet.">
        {study.status === 'TO_READ' || study.status === 'ORDERED'
          ? 'The report can be written once the study is assigned to a radiologist.'
          : null}
      </EmptyState>
    );
  }
  if (study.status === 'FINAL' || data.status === 'COMPLETED') {
    return (
      <FinalReport study={study} report={data} userId={userId} canAddAddendum={permissions.addAddendum} />
    );
  }
  return (
    <ReportWorkspace
      study={study}
      report={data}
      user={{ id: userId, name: user?.display_name ?? user?.email ?? 'Someone' }}
      permissions={permissions}
    />
  );
}
