import { FALLBACK_ERROR_MESSAGES, type TOrganisationDetails, type TReportStyle } from '@ris/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Building2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { errorMessage, isApiError } from '../../api/api-error.ts';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { notify } from '../../stores/app-store.ts';
import { SelectField } from '../templates/form-fields.tsx';
import { LetterheadPanel } from './letterhead-panel.tsx';
import { LetterheadPreview } from './letterhead-preview.tsx';
import { useStoredImageUrl } from '../../components/hooks/use-stored-image-url.ts';
import { usePickedImages } from './object-urls.ts';
import { organisationApi, organisationKeys } from './organisation-api.ts';
import { ReportStyleForm } from './report-style-form.tsx';
import { LocalNodePanel } from './local-node-panel.tsx';
import { TimeZonePanel } from './time-zone-panel.tsx';
import {
  draftOf,
  parseReportStyle,
  serverStyleErrors,
  styleOfDraft,
  type TStyleDraft,
  type TStyleErrors,
} from './report-style.ts';

function Card({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <section aria-label={title} className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-4">
      <div>
        <h2 className="text-sm font-semibold text-fg">{title}</h2>
        {description ? <p className="mt-0.5 text-[12px] text-fg-muted">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}

const sameStyle = (a: TReportStyle, b: TReportStyle) => JSON.stringify(a) === JSON.stringify(b);

export interface ReportLayoutSectionProps {
  organisation: TOrganisationDetails;
  /** Administrators change the report style; facility administrators only their letterhead. */
  canEditStyle: boolean;
}

/**
 * The report layout: each facility's letterhead and the organisation's report style, with a scaled
 * A4 page beside them that shows picked images before they are uploaded and the style as it is typed.
 */
export function ReportLayoutSection({ organisation, canEditStyle }: ReportLayoutSectionProps) {
  const queryClient = useQueryClient();
  const facilities = organisation.all_facilities;
  const [facilityId, setFacilityId] = useState(facilities[0]?.id ?? '');
  const images = usePickedImages();
  const saved = parseReportStyle(organisation.report_style);
  const [draft, setDraft] = useState<TStyleDraft>(() => draftOf(saved));
  const [serverErrors, setServerErrors] = useState<TStyleErrors>({});

  const facility = useQuery({
    queryKey: organisationKeys.facility(facilityId),
    queryFn: ({ signal }) => organisationApi.facility(facilityId, signal),
    enabled: facilityId !== '',
  });
  // While a field does not parse, the preview keeps the last style that did.
  const [lastValid, setLastValid] = useState<TReportStyle>(saved);
  const checked = styleOfDraft(draft);
  const style = canEditStyle ? lastValid : saved;
  const changeDraft = (next: TStyleDraft) => {
    setDraft(next);
    setServerErrors({});
    const result = styleOfDraft(next);
    if ('style' in result) setLastValid(result.style);
  };
  const errors: TStyleErrors = { ...serverErrors, ...('errors' in checked ? checked.errors : {}) };

  const save = useMutation({
    mutationFn: (next: TReportStyle) => organisationApi.saveReportStyle(organisation.id, next),
    onSuccess: (_data, next) => {
      setServerErrors({});
      queryClient.setQueryData<TOrganisationDetails>(organisationKeys.details(organisation.id), (current) =>
        current ? { ...current, report_style: JSON.stringify(next) } : current,
      );
      notify('success', 'Report style saved');
    },
    onError: (error) => {
      setServerErrors(isApiError(error) ? serverStyleErrors(error.details, error.serverMessage) : {});
      notify('error', errorMessage(error, FALLBACK_ERROR_MESSAGES.updateOrganisation));
    },
  });

  const version = facility.data?.updated_at ?? '';
  const storedHeader = useStoredImageUrl(facility.data?.header_file_url ?? null, version);
  const storedFooter = useStoredImageUrl(facility.data?.footer_file_url ?? null, version);

  if (facilities.length === 0) {
    return <EmptyState icon={Building2} title="No facility to set up." />;
  }
  return (
    <div className="grid items-start gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(18rem,26rem)]">
      <div className="flex min-w-0 flex-col gap-5">
        <Card
          title="Letterhead"
          description="The header and footer printed on every page of this facility's reports."
        >
          {facilities.length > 1 ? (
            <SelectField
              label="Facility"
              value={facilityId}
              onChange={(event) => {
                setFacilityId(event.target.value);
                images.clear();
              }}
            >
              {facilities.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                </option>
              ))}
            </SelectField>
          ) : null}
          {facility.isPending ? (
            <p className="flex items-center gap-2 text-[13px] text-fg-muted">
              <Spinner /> Loading the facility…
            </p>
          ) : facility.isError ? (
            <p className="text-[13px] text-danger">
              {errorMessage(facility.error, 'Failed to load the facility')}
            </p>
          ) : (
            <LetterheadPanel key={facility.data.id} facility={facility.data} images={images} />
          )}
        </Card>
        {facility.data ? (
          <Card
            title="Time zone"
            description="The zone this facility's reports print their dates and times in."
          >
            <TimeZonePanel
              key={`${facility.data.id} ${facility.data.updated_at} ${organisation.time_zone}`}
              organisation={organisation}
              facility={facility.data}
              canEditOrganisation={canEditStyle}
            />
          </Card>
        ) : null}
        {facility.data ? (
          <Card
            title="Local image node"
            description="Where this facility's images are on its own network, for workstations there."
          >
            <LocalNodePanel
              key={`${facility.data.id} ${facility.data.updated_at}`}
              facility={facility.data}
            />
          </Card>
        ) : null}
        {canEditStyle ? (
          <Card
            title="Report style"
            description="The layout of every report of the organisation, in PDF and DOCX, with or without letterhead."
          >
            <ReportStyleForm
              draft={draft}
              errors={errors}
              onChange={changeDraft}
              onSubmit={() => {
                if ('style' in checked) save.mutate(checked.style);
              }}
              saving={save.isPending}
              dirty={'errors' in checked || !sameStyle(checked.style, saved)}
            />
          </Card>
        ) : (
          <p className="text-[12px] text-fg-subtle">
            The report style (sizes, margins, header and footer heights) is set by the organisation&apos;s
            administrators.
          </p>
        )}
      </div>
      <div className="lg:sticky lg:top-4">
        <LetterheadPreview
          style={style}
          headerUrl={images.picked.header?.url ?? storedHeader}
          footerUrl={images.picked.footer?.url ?? storedFooter}
          letterheadEnabled={facility.data?.letterhead_enabled ?? false}
          facilityName={
            facility.data?.name ?? facilities.find((option) => option.id === facilityId)?.name ?? ''
          }
        />
      </div>
    </div>
  );
}
