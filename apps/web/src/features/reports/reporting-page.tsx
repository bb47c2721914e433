import { FALLBACK_ERROR_MESSAGES, worklistItemTopic } from '@ris/domain';
import { useQuery } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import { Page } from '../../components/layout/page.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { settingsStore } from '../../stores/settings-store.ts';
import { PATHS, worklistItemPath } from '../../paths.ts';
import { realtime } from '../realtime/realtime.ts';
import { useWorklistLiveUpdates } from '../worklist/live/use-worklist-live-updates.ts';
import { worklistApi, worklistKeys } from '../worklist/worklist-api.ts';
import { authedImages } from './authed-images.ts';
import { PriorReportsPanel } from './panels/prior-reports-panel.tsx';
import { PatientDocuments } from './patient-documents.tsx';
import { ReportSection } from './report-section.tsx';
import { StatusHistoryList } from './status-history-list.tsx';
import { StudyHeader } from './study-header.tsx';

// The study's series and the viewer beside the editor (features/dicom), loaded with this screen's first study.
const SeriesPanel = lazy(() => import('../dicom/series-panel.tsx').then((m) => ({ default: m.SeriesPanel })));

/**
 * /worklist/:worklistId — the reporting workspace: the study and patient, the patient's documents
 * and prior reports, the report (collaborative editor, templates, macros, key images, review and
 * finalize; addenda once final) and the status history, all live.
 */
export function ReportingPage() {
  const { worklistId = '' } = useParams();
  useWorklistLiveUpdates({ toasts: true });
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

  // Key images loaded for this study are let go when the screen closes.
  useEffect(() => () => authedImages.clear(), []);

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
    // 400: the address holds no study id at all (a mistyped or cut link).
    const missing = isApiError(item.error) && (item.error.status === 404 || item.error.status === 400);
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
      <Suspense fallback={null}>
        <SeriesPanel item={study} />
      </Suspense>
      <PatientDocuments item={study} canManage={study.abilities.manage_documents} />
      <PriorReportsPanel study={study} />
      <ReportSection study={study} />
      <StatusHistoryList id={study.id} />
    </Page>
  );
}
