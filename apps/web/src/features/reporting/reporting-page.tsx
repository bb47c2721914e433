import { FALLBACK_ERROR_MESSAGES, label, worklistItemTopic, type TWorklistItem } from '@ris/domain';
import { useQuery } from '@tanstack/react-query';
import { format } from 'date-fns/format';
import { FilePenLine, FileText } from 'lucide-react';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import { Page } from '../../components/layout/page.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { settingsStore } from '../../stores/settings-store.ts';
import { PATHS, worklistItemPath } from '../../paths.ts';
import { realtime } from '../realtime/realtime.ts';
import { useWorklistLiveUpdates } from '../realtime/use-worklist-live-updates.ts';
import { PriorityBadge, StatusText } from '../worklist/worklist-cells.tsx';
import { worklistApi, worklistKeys } from '../worklist/worklist-api.ts';
import { fetchStatusHistory } from './status-history.ts';

function formatDate(value: string | null, pattern: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : format(date, pattern);
}

function Fact({ term, value }: { term: string; value: string | null | undefined }) {
  return (
    <div className="min-w-0">
      <dt className="text-[11px] font-medium tracking-wide text-fg-subtle uppercase">{term}</dt>
      <dd className="truncate text-[13px] text-fg">{value || <span className="text-fg-subtle">—</span>}</dd>
    </div>
  );
}

function StudyHeader({ item }: { item: TWorklistItem }) {
  const sex = item.patient_sex
    ? label(item.patient_sex === 'M' ? 'MALE' : item.patient_sex === 'F' ? 'FEMALE' : 'OTHER')
    : null;
  return (
    <section aria-label="Study" className="rounded-lg border border-line bg-surface">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-line px-5 py-3">
        <StatusText status={item.status} />
        {item.priority_tag ? <PriorityBadge tag={item.priority_tag} /> : null}
        <span className="font-mono text-[12px] text-fg-muted">{item.accession_number}</span>
        {item.collaboration_enabled ? (
          <span className="text-[12px] text-fg-muted">Collaboration on</span>
        ) : null}
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 px-5 py-4 md:grid-cols-4 xl:grid-cols-6">
        <Fact term="Patient ID" value={item.patient_id} />
        <Fact term="Sex" value={sex} />
        <Fact term="Birth date" value={formatDate(item.patient_birth_date, 'dd MMM yyyy')} />
        <Fact term="Modality" value={item.modality} />
        <Fact term="Study" value={item.study} />
        <Fact term="Study date" value={formatDate(item.datetime, 'dd MMM yyyy, HH:mm')} />
        <Fact term="Facility" value={item.facility} />
        <Fact term="Radiologist" value={item.last_assigned_user_display_name} />
        <Fact term="Referring physician" value={item.referring_physician} />
        <Fact term="Series / images" value={`${item.series_count} / ${item.instance_count}`} />
        <Fact term="Body part" value={item.body_part} />
        <Fact term="Study UID" value={item.study_uid} />
      </dl>
      {item.clinical_history ? (
        <div className="border-t border-line px-5 py-3">
          <h2 className="text-[11px] font-medium tracking-wide text-fg-subtle uppercase">Clinical history</h2>
          <p className="mt-1 text-[13px] whitespace-pre-wrap text-fg">{item.clinical_history}</p>
        </div>
      ) : null}
      {item.patient_documents.length > 0 ? (
        <div className="border-t border-line px-5 py-3">
          <h2 className="text-[11px] font-medium tracking-wide text-fg-subtle uppercase">Documents</h2>
          <ul className="mt-1.5 flex flex-wrap gap-2">
            {item.patient_documents.map((document) => (
              <li
                key={document.id}
                className="flex items-center gap-1.5 rounded border border-line px-2 py-1 text-[12px] text-fg-muted"
              >
                <FileText aria-hidden="true" className="size-3.5" />
                {document.filename}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}

function History({ id }: { id: string }) {
  const history = useQuery({
    queryKey: ['worklist', 'history', id],
    queryFn: ({ signal }) => fetchStatusHistory(id, signal),
  });
  if (!history.data || history.data.history.length === 0) return null;
  return (
    <section aria-labelledby="history-title" className="rounded-lg border border-line bg-surface px-5 py-3">
      <h2 id="history-title" className="text-[11px] font-medium tracking-wide text-fg-subtle uppercase">
        Status history
      </h2>
      <ol className="mt-2 flex flex-col gap-1.5 text-[13px]">
        {history.data.history.map((entry) => (
          <li key={entry.id} className="flex flex-wrap items-center gap-2 text-fg-muted">
            <time className="w-36 tabular-nums" dateTime={entry.created_at}>
              {formatDate(entry.created_at, 'dd MMM yyyy, HH:mm')}
            </time>
            {entry.from_status ? <StatusText status={entry.from_status} /> : null}
            {entry.from_status ? <span aria-label="to">→</span> : null}
            <StatusText status={entry.to_status} />
            <span>{entry.by_user_display_name ? `by ${entry.by_user_display_name}` : 'by the system'}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * /worklist/:worklistId — the study's header with its real details and status history, live. The
 * reporting workspace (editor, dictation, PDF) comes with the next release.
 */
export function ReportingPage() {
  const { worklistId = '' } = useParams();
  useWorklistLiveUpdates({ toasts: false });
  const item = useQuery({
    queryKey: worklistKeys.item(worklistId),
    queryFn: ({ signal }) => worklistApi.item(worklistId, signal),
    enabled: worklistId !== '',
  });

  const title = item.data?.patient_name;
  useEffect(() => {
    if (!title) return;
    settingsStore.getState().openTab({ id: worklistId, title, path: worklistItemPath(worklistId) });
  }, [worklistId, title]);

  useEffect(() => {
    if (!worklistId) return;
    const topic = worklistItemTopic(worklistId);
    realtime.listen(topic);
    return () => realtime.forget(topic);
  }, [worklistId]);

  if (item.isPending) {
    return (
      <Page wide title="Study">
        <p className="flex items-center gap-2 text-[13px] text-fg-muted">
          <Spinner /> Loading the study…
        </p>
      </Page>
    );
  }
  if (item.isError || !item.data) {
    const missing = isApiError(item.error) && item.error.status === 404;
    return (
      <Page wide title="Study">
        <EmptyState
          icon={FileText}
          title={
            missing
              ? 'This study does not exist or is not in your facilities.'
              : errorMessage(item.error, FALLBACK_ERROR_MESSAGES.fetchWorklist)
          }
          action={
            <Link className="text-[13px] text-accent hover:underline" to={PATHS.worklist}>
              Back to the worklist
            </Link>
          }
        />
      </Page>
    );
  }
  const study = item.data;
  return (
    <Page
      wide
      title={study.patient_name}
      description={[study.modality, study.study, study.facility].filter(Boolean).join(' · ')}
    >
      <StudyHeader item={study} />
      <History id={study.id} />
      <EmptyState icon={FilePenLine} title="The reporting workspace is not available yet.">
        Writing, dictating and signing reports comes with the next release.
      </EmptyState>
    </Page>
  );
}
