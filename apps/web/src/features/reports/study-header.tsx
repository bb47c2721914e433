import { formatElapsedSince, label, type TWorklistItem, priorityTagLabel } from '@ris/domain';
import { format } from 'date-fns/format';
import { Eye } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Tooltip } from '../../components/ui/tooltip.tsx';
import { useMinuteClock } from '../../components/hooks/use-minute-clock.ts';
import { useAuth } from '../../stores/auth-store.ts';
import { tableSettingsOf, useSettings } from '../../stores/settings-store.ts';
import { useOpenInViewer } from '../viewers/use-open-in-viewer.ts';
import { PriorityBadge, StatusText } from '../worklist/worklist-cells.tsx';
import { facilityTimeText, viewerTimeZone } from './facility-time.ts';
import { useFacilityTimeZone } from './use-facility-time-zone.ts';

export function formatDate(value: string | null, pattern: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : format(date, pattern);
}

function Fact({
  term,
  value,
  detail,
}: {
  term: string;
  value: string | null | undefined;
  detail?: string | null;
}) {
  return (
    <div className="min-w-0">
      <dt className="text-[11px] font-medium tracking-wide text-fg-subtle uppercase">{term}</dt>
      <dd className="truncate text-[13px] text-fg" title={value ?? undefined}>
        {value || <span className="text-fg-subtle">—</span>}
      </dd>
      {detail ? <dd className="text-[12px] leading-snug text-fg-muted">({detail})</dd> : null}
    </div>
  );
}

/**
 * The study's date in the viewer's local time and, where the facility's clock reads otherwise, the
 * facility's time beneath it (e.g. "(facility 26 Nov, 02:28 IST)").
 */
function StudyDate({ item }: { item: TWorklistItem }) {
  const zone = useFacilityTimeZone(item.facility_fk);
  const when = item.datetime ? new Date(item.datetime) : null;
  const detail = when && zone ? facilityTimeText(when, zone, viewerTimeZone()) : null;
  return <Fact term="Study date" value={formatDate(item.datetime, 'dd MMM yyyy, HH:mm')} detail={detail} />;
}

/** Opens the study in the user's default viewer (worklist settings); needs the study's DICOM UID. */
function OpenInViewer({ item }: { item: TWorklistItem }) {
  const userId = useAuth((state) => state.user?.id);
  const viewer = useSettings((state) => tableSettingsOf(state, userId).defaultViewer);
  const { name, open, pending } = useOpenInViewer(viewer);
  const studyUid = item.study_uid;
  const button = (
    <Button
      variant="secondary"
      size="sm"
      disabled={!studyUid || pending}
      aria-label={`Open ${item.patient_name} in ${name}`}
      onClick={() => studyUid && open(studyUid)}
    >
      <Eye aria-hidden="true" className="size-3.5" /> Open in {name}
    </Button>
  );
  if (studyUid) return button;
  return (
    <Tooltip content="This study has no images yet (no Study Instance UID)">
      <span tabIndex={0} className="rounded-md">
        {button}
      </span>
    </Tooltip>
  );
}

/** Study and patient: status, priority, elapsed time, referring physician, facility and the rest. */
export function StudyHeader({ item }: { item: TWorklistItem }) {
  const now = useMinuteClock();
  const since = new Date(item.datetime ?? item.created_at);
  const elapsed = Number.isNaN(since.getTime()) ? null : formatElapsedSince(since, now);
  const sex = item.patient_sex
    ? label(item.patient_sex === 'M' ? 'MALE' : item.patient_sex === 'F' ? 'FEMALE' : 'OTHER')
    : null;
  return (
    <section aria-label="Study" className="rounded-lg border border-line bg-surface">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-line px-5 py-3">
        <span data-testid="study-status">
          <StatusText status={item.status} />
        </span>
        {item.priority_tag ? <PriorityBadge tag={item.priority_tag} /> : null}
        {elapsed ? (
          <span className="text-[12px] text-fg-muted tabular-nums" title="Time since the study">
            {elapsed} ago
          </span>
        ) : null}
        <span className="font-mono text-[12px] text-fg-muted">{item.accession_number}</span>
        {item.collaboration_enabled ? (
          <span className="text-[12px] text-fg-muted">Collaboration on</span>
        ) : null}
        <span className="ml-auto">
          <OpenInViewer item={item} />
        </span>
      </div>
      <dl className="grid grid-cols-2 gap-x-6 gap-y-3 px-5 py-4 md:grid-cols-4 xl:grid-cols-6">
        <Fact term="Patient ID" value={item.patient_id} />
        <Fact term="Sex" value={sex} />
        <Fact term="Birth date" value={formatDate(item.patient_birth_date, 'dd MMM yyyy')} />
        <Fact term="Modality" value={item.modality} />
        <Fact term="Study" value={item.study} />
        <StudyDate item={item} />
        <Fact term="Facility" value={item.facility} />
        <Fact term="Radiologist" value={item.last_assigned_user_display_name} />
        <Fact term="Referring physician" value={item.referring_physician} />
        <Fact term="Priority" value={item.priority_tag ? priorityTagLabel(item.priority_tag) : null} />
        <Fact term="Series / images" value={`${item.series_count} / ${item.instance_count}`} />
        <Fact term="Body part" value={item.body_part} />
      </dl>
      {item.clinical_history ? (
        <div className="border-t border-line px-5 py-3">
          <h2 className="text-[11px] font-medium tracking-wide text-fg-subtle uppercase">Clinical history</h2>
          <p className="mt-1 text-[13px] whitespace-pre-wrap text-fg">{item.clinical_history}</p>
        </div>
      ) : null}
    </section>
  );
}
