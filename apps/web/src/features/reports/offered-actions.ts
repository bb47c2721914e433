import type { TReport, TWorklistItem } from '@ris/domain';

/** The reporting actions the screen offers. */
export interface TReportActions {
  /** Write the report (and create it on first visit when there is none yet). */
  edit: boolean;
  saveDraft: boolean;
  submitForReview: boolean;
  returnToDraft: boolean;
  finalize: boolean;
  addAddendum: boolean;
  toggleCollaboration: boolean;
}

/**
 * Exactly the abilities the server sent with the report and its study (report.policy.ts and the
 * worklist policy decide; nothing here looks at roles). Before the report exists, whether it may be
 * written is the study's `write_report`.
 */
export function reportActions(study: TWorklistItem, report: TReport | null): TReportActions {
  const edit = report ? report.abilities.edit : study.abilities.write_report;
  return {
    edit,
    // A report in review is saved as it is typed; "Save draft" there would read as taking it back.
    saveDraft: edit && study.status !== 'IN_REVIEW',
    submitForReview: report?.abilities.submit ?? false,
    returnToDraft: report?.abilities.return ?? false,
    finalize: report?.abilities.finalize ?? false,
    addAddendum: report?.abilities.addendum ?? false,
    toggleCollaboration: study.abilities.toggle_collaboration,
  };
}
