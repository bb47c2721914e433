import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../../stores/auth-store.ts';
import { organisationApi, organisationKeys } from '../organisations/organisation-api.ts';
import { facilityTimeZone } from './facility-time.ts';

/**
 * The IANA zone of a facility's clock: its own, else its organisation's (then the organisation's
 * details are read once and cached); null while unknown or for a facility the user cannot see.
 */
export function useFacilityTimeZone(facilityId: string): string | null {
  const own = useAuth((state) => state.facilities.find((facility) => facility.id === facilityId));
  const organisationId = useAuth((state) => state.user?.organisation_fk ?? null);
  const details = useQuery({
    queryKey: organisationKeys.details(organisationId ?? ''),
    queryFn: ({ signal }) => {
      if (!organisationId) throw new Error('No organisation');
      return organisationApi.details(organisationId, signal);
    },
    enabled: !own?.time_zone && organisationId !== null,
    staleTime: 5 * 60_000,
  });
  const facility = own ?? details.data?.all_facilities.find((entry) => entry.id === facilityId);
  if (!facility) return null;
  return facilityTimeZone(facility.time_zone, details.data?.time_zone);
}
