import {
  PAGE_SIZES,
  ZMergePatientResult,
  ZPatient,
  ZPatientList,
  ZPatientStudies,
  type TMergePatientResult,
  type TPatchPatientBody,
  type TPatient,
  type TPatientList,
  type TPatientStudies,
} from '@ris/domain';
import { apiClient } from '../../api/client.ts';

const enc = encodeURIComponent;

/** The page size of the Patients screen (spec §9: patients 10). */
export const PATIENTS_PAGE_SIZE = PAGE_SIZES.patients;
/** Studies shown under an opened patient at a time. */
export const PATIENT_STUDIES_PAGE_SIZE = 10;

export const FETCH_PATIENTS_FAILED = 'Failed to fetch patients';
export const UPDATE_PATIENT_FAILED = 'Failed to update patient';
export const MERGE_PATIENTS_FAILED = 'Failed to merge patients';
export const FETCH_PATIENT_STUDIES_FAILED = 'Failed to fetch studies';

export type TPatientFilters = {
  search: string;
  facilityIds: readonly string[];
  offset: number;
  limit: number;
};

/** Query keys of the Patients screen (everything under 'patients' is refetched after a change). */
export const patientKeys = {
  all: ['patients'] as const,
  list: (filters: TPatientFilters) => ['patients', 'list', filters] as const,
  studies: (patientId: string, offset: number) => ['patients', 'studies', patientId, offset] as const,
};

export const patientsApi = {
  /** GET /user/patients (search, facility_fks, limit, offset). */
  list: (filters: TPatientFilters, signal?: AbortSignal): Promise<TPatientList> =>
    apiClient.get('/user/patients', {
      query: {
        search: filters.search.trim() || undefined,
        facility_fks: [...filters.facilityIds],
        limit: filters.limit,
        offset: filters.offset,
      },
      signal,
      parse: (data) => ZPatientList.parse(data),
    }),
  /** PATCH /user/patient/{id}: the fields given change, with the patient columns of its studies. */
  update: (id: string, body: TPatchPatientBody): Promise<TPatient> =>
    apiClient.patch(`/user/patient/${enc(id)}`, body, { parse: (data) => ZPatient.parse(data) }),
  /** GET /user/patient/{id}/studies: the studies of the record the caller may see, newest first. */
  studies: (id: string, offset: number, signal?: AbortSignal): Promise<TPatientStudies> =>
    apiClient.get(`/user/patient/${enc(id)}/studies`, {
      query: { limit: PATIENT_STUDIES_PAGE_SIZE, offset },
      signal,
      parse: (data) => ZPatientStudies.parse(data),
    }),
  /** POST /user/patient/{id}/merge: `duplicateId`'s studies move to record `id`. */
  merge: (id: string, duplicateId: string): Promise<TMergePatientResult> =>
    apiClient.post(
      `/user/patient/${enc(id)}/merge`,
      { duplicate_id: duplicateId },
      { parse: (data) => ZMergePatientResult.parse(data) },
    ),
};
