import { NO_WORKLIST_ITEM_ABILITIES, type TWorklistItem, type TWorklistListResponse } from '@ris/domain';

export const FACILITY_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
export const FACILITY_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

/** A complete worklist item for tests; `n` makes the id unique. */
export function buildItem(n: number, patch: Partial<TWorklistItem> = {}): TWorklistItem {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    id,
    facility_fk: FACILITY_A,
    facility: 'City General',
    study_uid: null,
    accession_number: `SM0000000${n}`,
    patient_name: `Patient ${n}`,
    patient_id: `P${n}`,
    patient_fk: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    patient_sex: 'F',
    patient_birth_date: '1980-01-01',
    modality: 'CT',
    modality_group: 'CT',
    study: 'CT Head',
    body_part: null,
    datetime: '2026-11-21T08:00:00.000Z',
    series_count: 2,
    instance_count: 100,
    images_deleted_at: null,
    status: 'TO_READ',
    priority_tag: null,
    last_assigned_user_fk: null,
    last_assigned_user_display_name: null,
    referring_physician_fk: null,
    referring_physician: null,
    clinical_history: null,
    collaboration_enabled: false,
    patient_documents: [],
    created_at: '2026-11-21T08:00:00.000Z',
    updated_at: '2026-11-21T08:00:00.000Z',
    abilities: NO_WORKLIST_ITEM_ABILITIES,
    ...patch,
  };
}

export function buildPage(items: TWorklistItem[], limit = 10, total = items.length): TWorklistListResponse {
  return {
    items,
    total,
    limit,
    offset: 0,
    next_offset: total > limit ? limit : null,
    previous_offset: null,
    total_capped: false,
  };
}
