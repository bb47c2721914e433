import type { TFacilityDetails, TOrganisationDetails } from '@ris/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/api-error.ts';
import { Button } from '../../components/ui/button.tsx';
import { notify } from '../../stores/app-store.ts';
import { SelectField } from '../templates/form-fields.tsx';
import { organisationApi, organisationKeys } from './organisation-api.ts';

/** The option that stands for "no zone of its own" (time_zone null). */
const INHERIT = '';

/**
 * Every IANA zone this browser knows, UTC first, each once; `current` is kept even if the browser
 * lacks it (Node's ICU names Asia/Calcutta, not Asia/Kolkata, and a facility and its organisation
 * often share a zone: listed twice, React warned of two options with one key).
 */
function zoneNames(current: readonly (string | null)[]): string[] {
  const zones = new Set([...Intl.supportedValuesOf('timeZone'), ...current]);
  zones.delete(null);
  zones.delete('UTC');
  return ['UTC', ...[...zones].filter((zone): zone is string => zone !== null).sort()];
}

export interface TimeZonePanelProps {
  organisation: TOrganisationDetails;
  facility: TFacilityDetails;
  /** Administrators also set the organisation's zone (the one facilities without their own use). */
  canEditOrganisation: boolean;
}

/**
 * The time zone a facility's reports print their dates in (PDF and DOCX): its own, or the
 * organisation's. Administrators also choose the organisation's zone.
 */
export function TimeZonePanel({ organisation, facility, canEditOrganisation }: TimeZonePanelProps) {
  const queryClient = useQueryClient();
  const [facilityZone, setFacilityZone] = useState(facility.time_zone ?? INHERIT);
  const [organisationZone, setOrganisationZone] = useState(organisation.time_zone);
  const zones = zoneNames([facility.time_zone, organisation.time_zone]);

  const save = useMutation({
    mutationFn: async () => {
      if (canEditOrganisation && organisationZone !== organisation.time_zone) {
        const details = await organisationApi.saveOrganisationTimeZone(organisation.id, organisationZone);
        queryClient.setQueryData(organisationKeys.details(organisation.id), details);
      }
      const next = facilityZone === INHERIT ? null : facilityZone;
      if (next !== facility.time_zone) {
        const saved = await organisationApi.saveFacilityTimeZone(facility.id, next);
        queryClient.setQueryData(organisationKeys.facility(facility.id), saved);
      }
    },
    onSuccess: () => notify('success', 'Time zone saved'),
    onError: (error) => notify('error', errorMessage(error, 'Failed to save the time zone')),
  });
  const dirty =
    (facilityZone === INHERIT ? null : facilityZone) !== facility.time_zone ||
    (canEditOrganisation && organisationZone !== organisation.time_zone);

  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <SelectField
        label={`Time zone of ${facility.name}`}
        value={facilityZone}
        onChange={(event) => setFacilityZone(event.target.value)}
        hint="Dates and times in this facility's reports are printed in this zone, with its name."
      >
        <option value={INHERIT}>Organisation&apos;s ({organisationZone})</option>
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        ))}
      </SelectField>
      {canEditOrganisation ? (
        <SelectField
          label="Organisation time zone"
          value={organisationZone}
          onChange={(event) => setOrganisationZone(event.target.value)}
          hint="Used by every facility without a zone of its own."
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </SelectField>
      ) : null}
      <div>
        <Button type="submit" disabled={!dirty || save.isPending}>
          Save time zone
        </Button>
      </div>
    </form>
  );
}
