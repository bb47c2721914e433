import { describe, expect, it } from 'vitest';
import { buildQueryString } from '../../api/query-string.ts';
import { defaultWorklistFilters } from '../../stores/settings-store.ts';
import {
  buildCountParams,
  buildListParams,
  listStatuses,
  type TWorklistQueryInput,
} from './worklist-query.ts';

const USER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

function input(patch: Partial<TWorklistQueryInput> = {}): TWorklistQueryInput {
  return { filters: defaultWorklistFilters(), group: 'ALL', timeZone: 'Asia/Kolkata', ...patch };
}

describe('worklist query parameters', () => {
  it('asks for the first page, today, newest first, every listed status, by default', () => {
    const query = buildQueryString(buildListParams(input(), { limit: 10, offset: 0 }) ?? {});
    expect(query).toBe(
      '?statuses=ORDERED&statuses=TO_READ&statuses=ASSIGNED&statuses=IN_REVIEW&statuses=DRAFTED&statuses=FINAL' +
        '&date_range_type=TODAY&time_zone=Asia%2FKolkata&limit=10&offset=0&sort_by=created_at&sort_order=desc',
    );
  });

  it('repeats array keys and trims the search', () => {
    const filters = {
      ...defaultWorklistFilters(),
      modalities: ['CT' as const, 'MRI' as const],
      facility_ids: [USER, OTHER],
      search: '  doe ',
      sort_by: 'patient_name',
      sort_order: 'asc' as const,
    };
    const params = buildListParams(input({ filters, group: 'COMPLETED' }), { limit: 25, offset: 50 });
    const query = new URLSearchParams(buildQueryString(params ?? {}));
    expect(query.getAll('modalities')).toEqual(['CT', 'MRI']);
    expect(query.getAll('facility_ids')).toEqual([USER, OTHER]);
    expect(query.getAll('statuses')).toEqual(['FINAL']);
    expect(query.get('search')).toBe('doe');
    expect(query.get('sort_by')).toBe('patient_name');
    expect(query.get('sort_order')).toBe('asc');
    expect(query.get('offset')).toBe('50');
  });

  it('sends the priority filter to the list and to the counts, repeated, and nothing when none is set', () => {
    const filters = { ...defaultWorklistFilters(), priority_tags: ['EMERGENCY' as const, 'URGENT' as const] };
    const list = new URLSearchParams(
      buildQueryString(buildListParams(input({ filters }), { limit: 10, offset: 0 }) ?? {}),
    );
    expect(list.getAll('priority_tags')).toEqual(['EMERGENCY', 'URGENT']);
    const counts = new URLSearchParams(buildQueryString(buildCountParams(input({ filters }))));
    expect(counts.getAll('priority_tags')).toEqual(['EMERGENCY', 'URGENT']);
    expect(buildQueryString(buildCountParams(input()))).not.toContain('priority_tags');
  });

  it('narrows the tab by the status filter, and fetches nothing when they exclude each other', () => {
    expect(listStatuses('ON_PROGRESS', ['FINAL', 'DRAFTED'])).toEqual(['DRAFTED']);
    expect(listStatuses('ORDERED', [])).toEqual(['ORDERED']);
    const filters = { ...defaultWorklistFilters(), statuses: ['FINAL' as const] };
    expect(buildListParams(input({ filters, group: 'ORDERED' }), { limit: 10, offset: 0 })).toBeNull();
  });

  it('counts over the status filter, not the tab', () => {
    const filters = { ...defaultWorklistFilters(), statuses: ['FINAL' as const] };
    const params = buildCountParams(input({ filters, group: 'ORDERED' }));
    expect(params.statuses).toEqual(['FINAL']);
    expect(params).not.toHaveProperty('limit');
    expect(buildCountParams(input()).statuses).toEqual([]);
  });

  it('sends custom dates only for CUSTOM, as calendar dates', () => {
    const custom = {
      ...defaultWorklistFilters(),
      date_range_type: 'CUSTOM' as const,
      start_date: '2026-02-27',
      end_date: '2026-02-28',
    };
    const params = buildCountParams(input({ filters: custom }));
    expect(params).toMatchObject({ start_date: '2026-02-27', end_date: '2026-02-28' });
    const preset = buildCountParams(input({ filters: { ...custom, date_range_type: 'LAST_1_WEEK' } }));
    expect(preset.start_date).toBeUndefined();
    expect(preset.end_date).toBeUndefined();
  });

  it("always adds a reporter's own id, never twice, and not for other radiologists", () => {
    const filters = { ...defaultWorklistFilters(), by_user_ids: [OTHER] };
    const reporter = { id: USER, role: 'RADIOLOGIST', userType: 'REPORTER' };
    expect(buildCountParams(input({ filters, user: reporter })).by_user_ids).toEqual([OTHER, USER]);
    const again = { ...filters, by_user_ids: [USER] };
    expect(buildCountParams(input({ filters: again, user: reporter })).by_user_ids).toEqual([USER]);
    const radiologist = { id: USER, role: 'RADIOLOGIST', userType: 'RADIOLOGIST' };
    expect(buildCountParams(input({ filters, user: radiologist })).by_user_ids).toEqual([OTHER]);
  });

  it('falls back to created_at for a sort field the server does not allow', () => {
    const filters = { ...defaultWorklistFilters(), sort_by: 'facility' };
    expect(buildListParams(input({ filters }), { limit: 10, offset: 0 })?.sort_by).toBe('created_at');
  });
});
