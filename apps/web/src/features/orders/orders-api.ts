import {
  ZWorklistItem,
  type TSaveReferringPhysicianBody,
  type TPatient,
  type TPatientList,
  type TReferringPhysician,
  type TReferringPhysicianList,
  type TWorklistItem,
} from '@ris/domain';
import { apiClient } from '../../api/client.ts';
import { uploadForm, type UploadProgress } from '../../api/upload.ts';

/** What the order dialog uses of a patient record (ZPatient, GET /user/patients). */
export type TPatientOption = Pick<
  TPatient,
  'id' | 'facility_fk' | 'patient_id' | 'name' | 'sex' | 'birth_date'
>;

/** What the order dialog uses of a referring physician (ZReferringPhysician). */
export type TReferringPhysicianOption = Pick<TReferringPhysician, 'id' | 'name'>;

/** The form as multipart: blank fields are left out, every document goes under `files`. */
export function orderFormData(
  fields: Partial<Record<string, string>>,
  files: readonly File[] = [],
): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value.trim() !== '') form.append(name, value.trim());
  }
  for (const file of files) form.append('files', file, file.name);
  return form;
}

function parseItem(data: unknown): TWorklistItem {
  return ZWorklistItem.parse(data);
}

export const ordersApi = {
  create: (form: FormData, onProgress?: (progress: UploadProgress) => void) =>
    uploadForm<unknown>({ path: '/worklist/create/order', form, onProgress }).then(parseItem),
  activate: (form: FormData, onProgress?: (progress: UploadProgress) => void) =>
    uploadForm<unknown>({ path: '/worklist/activate', form, onProgress }).then(parseItem),
  duplicate: (worklistId: string) =>
    uploadForm<unknown>({
      path: '/worklist/duplicate',
      form: orderFormData({ worklist_id: worklistId }),
    }).then(parseItem),
  patients: (search: string, facilityIds: readonly string[], signal?: AbortSignal) =>
    apiClient.get<TPatientList>('/user/patients', {
      query: { search: search.trim() || undefined, facility_fks: facilityIds, limit: 10, offset: 0 },
      signal,
    }),
  referringPhysicians: (search: string, signal?: AbortSignal) =>
    apiClient.get<TReferringPhysicianList>('/user/referring-physicians', {
      query: { search: search.trim() || undefined, limit: 20 },
      signal,
    }),
  createReferringPhysician: (name: string) =>
    apiClient.post<TReferringPhysician>('/user/referring-physician', {
      name,
    } satisfies TSaveReferringPhysicianBody),
};
