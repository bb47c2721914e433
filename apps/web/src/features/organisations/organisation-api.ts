import {
  ZFacilityDetails,
  ZOrganisationDetails,
  ZOutboxPage,
  type TFacilityDetails,
  type TOrganisationDetails,
  type TOutboxPage,
  type TReportStyle,
} from '@ris/domain';
import { apiClient } from '../../api/client.ts';
import { uploadForm } from '../../api/upload.ts';

const enc = encodeURIComponent;

/** Query keys of the organisation screen. */
export const organisationKeys = {
  details: (organisationId: string) => ['organisation', organisationId] as const,
  facility: (facilityId: string) => ['facility', facilityId] as const,
  letterheadImage: (path: string, version: string) => ['letterhead-image', path, version] as const,
  outbox: (offset: number, limit: number) => ['outbox', offset, limit] as const,
};

/** The letterhead changes one POST /user/facility/{id}/letterhead carries. */
export interface TLetterheadUpload {
  enable?: boolean;
  header?: File | null;
  footer?: File | null;
}

function parseFacility(data: unknown): TFacilityDetails {
  return ZFacilityDetails.parse(data);
}

export const organisationApi = {
  details: (organisationId: string, signal?: AbortSignal): Promise<TOrganisationDetails> =>
    apiClient.get(`/user/organisation/details/${enc(organisationId)}`, {
      signal,
      parse: (data) => ZOrganisationDetails.parse(data),
    }),
  /** PUT /user/organisation/{id}: report_style is sent as serialized JSON (spec §3). */
  saveReportStyle: (organisationId: string, style: TReportStyle): Promise<unknown> =>
    apiClient.put(`/user/organisation/${enc(organisationId)}`, { report_style: JSON.stringify(style) }),
  /** PUT /user/organisation/{id}: the zone of every facility without its own. */
  saveOrganisationTimeZone: (organisationId: string, timeZone: string): Promise<TOrganisationDetails> =>
    apiClient.put(
      `/user/organisation/${enc(organisationId)}`,
      { time_zone: timeZone },
      { parse: (data) => ZOrganisationDetails.parse(data) },
    ),
  /** PUT /user/facility/{id}: the facility's own zone, or null for the organisation's. */
  saveFacilityTimeZone: (facilityId: string, timeZone: string | null): Promise<TFacilityDetails> =>
    apiClient.put(`/user/facility/${enc(facilityId)}`, { time_zone: timeZone }, { parse: parseFacility }),
  /** PUT /user/facility/{id} local_node_url: the facility's own image node (null: none). */
  saveFacilityLocalNode: (facilityId: string, url: string | null): Promise<TFacilityDetails> =>
    apiClient.put(`/user/facility/${enc(facilityId)}`, { local_node_url: url }, { parse: parseFacility }),
  facility: (facilityId: string, signal?: AbortSignal): Promise<TFacilityDetails> =>
    apiClient.get(`/user/facility/${enc(facilityId)}`, { signal, parse: parseFacility }),
  /** POST /user/facility/{id}/letterhead (multipart: enable_letterhead, header_file, footer_file). */
  uploadLetterhead: (
    facilityId: string,
    upload: TLetterheadUpload,
    onProgress?: (percent: number) => void,
  ): Promise<TFacilityDetails> => {
    const form = new FormData();
    if (upload.enable !== undefined) form.append('enable_letterhead', String(upload.enable));
    if (upload.header) form.append('header_file', upload.header, upload.header.name);
    if (upload.footer) form.append('footer_file', upload.footer, upload.footer.name);
    return uploadForm<unknown>({
      path: `/user/facility/${enc(facilityId)}/letterhead`,
      form,
      onProgress: (progress) => onProgress?.(progress.percent),
    }).then(parseFacility);
  },
  /** DELETE /user/facility/{id}/letterhead (delete_header, delete_footer). */
  deleteLetterhead: (facilityId: string, part: 'header' | 'footer'): Promise<TFacilityDetails> =>
    apiClient.delete(`/user/facility/${enc(facilityId)}/letterhead`, {
      query: { delete_header: part === 'header', delete_footer: part === 'footer' },
      parse: parseFacility,
    }),
  /** GET /comm/outbox (administrators): every outbound message of the organisation. */
  outbox: (offset: number, limit: number, signal?: AbortSignal): Promise<TOutboxPage> =>
    apiClient.get('/comm/outbox', {
      query: { offset, limit },
      signal,
      parse: (data) => ZOutboxPage.parse(data),
    }),
};
