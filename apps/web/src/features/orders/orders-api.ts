import { ZWorklistItem, type TWorklistItem } from '@ris/domain';
import { apiClient } from '../../api/client.ts';
import { uploadForm, type UploadProgress } from '../../api/upload.ts';

/** A patient record (GET /user/patients). */
export interface TPatientOption {
  id: string;
  facility_fk: string;
  patient_id: string;
  name: string;
  sex: string | null;
  birth_date: string | null;
}

export interface TReferringPhysicianOption {
  id: string;
  name: string;
}

/** What the create-order form sends (multipart field names of spec §7). */
export interface TOrderForm {
  patient_name: string;
  patient_id: string;
  patient_sex: string;
  patient_birth_date: string;
  modality: string;
  study: string;
  facility_fk: string;
  priority_tag: string;
  referring_physician_fk: string;
  referring_physician_name: string;
  clinical_history: string;
  by_user_id: string;
}

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
    apiClient.get<{ items: TPatientOption[] }>('/user/patients', {
      query: { search: search.trim() || undefined, facility_fks: facilityIds, limit: 10, offset: 0 },
      signal,
    }),
  referringPhysicians: (search: string, signal?: AbortSignal) =>
    apiClient.get<{ items: TReferringPhysicianOption[] }>('/user/referring-physicians', {
      query: { search: search.trim() || undefined, limit: 20 },
      signal,
    }),
  createReferringPhysician: (name: string) =>
    apiClient.post<TReferringPhysicianOption>('/user/referring-physician', { name }),
};
