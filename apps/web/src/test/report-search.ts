import type { TReportSearchHit, TReportSearchResponse } from '@ris/domain';

const uuid = (n: number, prefix = '00000000-0000-4000-8000-') => `${prefix}${String(n).padStart(12, '0')}`;

/** A report search hit for tests: report n of study n, a final report with a PDF unless patched. */
export function buildHit(n: number, patch: Partial<TReportSearchHit> = {}): TReportSearchHit {
  return {
    report_id: uuid(1000 + n),
    study_id: uuid(2000 + n),
    patient_id: uuid(3000),
    patient_name: `Patient ${n}`,
    patient_identifier: `MRN-${n}`,
    accession_number: `ACC-${n}`,
    study_description: 'CT Chest',
    modality: 'CT',
    modality_group: 'CT',
    facility_id: '00000000-0000-4000-8000-0000000000f1',
    facility_name: 'City General Hospital',
    study_status: 'FINAL',
    priority_tag: null,
    created_at: '2026-11-20T08:00:00.000Z',
    study_datetime: '2026-11-20T07:30:00.000Z',
    report_status: 'COMPLETED',
    radiologist: { id: uuid(4000), display_name: 'Dr Asha Rao' },
    finalized_at: '2026-11-20T09:00:00.000Z',
    updated_at: '2026-11-20T09:00:00.000Z',
    snippet: [
      { text: 'Small left ', match: false },
      { text: 'pleural effusion', match: true },
      { text: '.', match: false },
    ],
    rank: 0.5,
    has_pdf: true,
    ...patch,
  };
}

/** One page of hits as GET /report/search answers it. */
export function hitPage(
  items: TReportSearchHit[],
  page: { total?: number; limit?: number; offset?: number; capped?: boolean } = {},
): TReportSearchResponse {
  const total = page.total ?? items.length;
  const limit = page.limit ?? 20;
  const offset = page.offset ?? 0;
  return {
    items,
    total,
    total_capped: page.capped ?? false,
    limit,
    offset,
    next_offset: offset + items.length < total ? offset + limit : null,
    previous_offset: offset > 0 ? Math.max(0, offset - limit) : null,
  };
}
