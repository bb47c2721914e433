import type { TReport, TReportAbilities } from '@ris/domain';

/** A report ability set with nothing allowed; tests switch on what they exercise. */
export const NO_REPORT_ABILITIES: Readonly<TReportAbilities> = Object.freeze({
  edit: false,
  submit: false,
  return: false,
  finalize: false,
  addendum: false,
  share: false,
  preview: false,
  choose_signers: false,
});

/** A complete report for tests: what `patch` names, the given abilities, nothing else allowed. */
export function buildReport(
  patch: Pick<TReport, 'id' | 'worklist_id' | 'status' | 'version'>,
  abilities: Partial<TReportAbilities> = {},
): TReport {
  return {
    content: '<p>Findings.</p>',
    pdf_url: null,
    final_pdf_sha256: null,
    images: [],
    authors: [],
    addenda: [],
    updated_by: null,
    updated_by_display_name: null,
    finalized_by: null,
    finalized_at: null,
    created_at: '2026-11-21T08:00:00.000Z',
    updated_at: '2026-11-21T08:00:00.000Z',
    ...patch,
    abilities: { ...NO_REPORT_ABILITIES, ...abilities },
  };
}
