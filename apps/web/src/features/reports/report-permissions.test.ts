import { describe, expect, it } from 'vitest';
import { reportPermissions, type TReportActor, type TReportStudy } from './report-permissions.ts';

const RADIOLOGIST: TReportActor = { id: 'r1', role: 'RADIOLOGIST', userType: 'RADIOLOGIST' };
const OTHER_RADIOLOGIST: TReportActor = { id: 'r2', role: 'RADIOLOGIST', userType: 'RADIOLOGIST' };
const REPORTER: TReportActor = { id: 'rep', role: 'RADIOLOGIST', userType: 'REPORTER' };
const TRANSCRIPTIONIST: TReportActor = { id: 't1', role: 'TRANSCRIPTIONIST', userType: null };
const ADMIN: TReportActor = { id: 'a1', role: 'ADMIN', userType: null };
const REFERRER: TReportActor = { id: 'p1', role: 'REFERRING_PHYSICIAN', userType: null };

function study(patch: Partial<TReportStudy> = {}): TReportStudy {
  return { status: 'DRAFTED', last_assigned_user_fk: 'r1', collaboration_enabled: false, ...patch };
}

describe('report permissions', () => {
  it('lets the assigned radiologist and admins write, finalize and switch collaboration', () => {
    for (const actor of [RADIOLOGIST, ADMIN]) {
      const p = reportPermissions(actor, study());
      expect(p).toMatchObject({ edit: true, saveDraft: true, finalize: true, toggleCollaboration: true });
      expect(p.submitForReview).toBe(false);
    }
    expect(reportPermissions(OTHER_RADIOLOGIST, study())).toMatchObject({ edit: false, finalize: false });
    expect(reportPermissions(REFERRER, study())).toMatchObject({ edit: false, addAddendum: false });
  });

  it('lets a transcriptionist write only with collaboration on, and submit a draft for review', () => {
    expect(reportPermissions(TRANSCRIPTIONIST, study()).edit).toBe(false);
    const on = reportPermissions(TRANSCRIPTIONIST, study({ collaboration_enabled: true }));
    expect(on).toMatchObject({ edit: true, saveDraft: true, submitForReview: true, finalize: false });
    expect(on.toggleCollaboration).toBe(false);
    expect(
      reportPermissions(TRANSCRIPTIONIST, study({ collaboration_enabled: true, status: 'IN_REVIEW' })),
    ).toMatchObject({ edit: true, submitForReview: false, saveDraft: false, returnToDraft: false });
  });

  it('lets an assigned reporter submit for review as well as finalize', () => {
    const p = reportPermissions(REPORTER, study({ last_assigned_user_fk: 'rep' }));
    expect(p).toMatchObject({ edit: true, submitForReview: true, finalize: true });
  });

  it('offers return only on a study in review, to who may sign', () => {
    expect(reportPermissions(RADIOLOGIST, study({ status: 'IN_REVIEW' })).returnToDraft).toBe(true);
    expect(reportPermissions(RADIOLOGIST, study()).returnToDraft).toBe(false);
    expect(reportPermissions(OTHER_RADIOLOGIST, study({ status: 'IN_REVIEW' })).returnToDraft).toBe(false);
  });

  it('offers addenda instead of editing once final, and nothing before assignment', () => {
    const final = reportPermissions(RADIOLOGIST, study({ status: 'FINAL' }));
    expect(final).toMatchObject({
      edit: false,
      finalize: false,
      addAddendum: true,
      toggleCollaboration: false,
    });
    expect(
      reportPermissions(TRANSCRIPTIONIST, study({ status: 'FINAL', collaboration_enabled: true }))
        .addAddendum,
    ).toBe(false);
    expect(reportPermissions(ADMIN, study({ status: 'TO_READ', last_assigned_user_fk: null }))).toMatchObject(
      {
        edit: false,
        finalize: false,
      },
    );
  });
});
