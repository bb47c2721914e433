import type { TReport, TReportAbilities } from '@ris/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TTestServer } from '../../test/test-server.ts';
import { buildReportWorld, type TWorld, type TWorldUser } from '../../test/report-test-world.ts';

let server: TTestServer;
let w: TWorld;

beforeAll(async () => {
  server = await startTestServer();
  w = await buildReportWorld(server);
});
afterAll(async () => {
  await server.close();
});

const NONE: TReportAbilities = {
  edit: false,
  submit: false,
  return: false,
  finalize: false,
  addendum: false,
  share: false,
  preview: false,
  choose_signers: false,
};

/** What an editor of the report may do besides writing: preview unsaved text, choose who signs. */
const EDITOR = { edit: true, preview: true, choose_signers: true } as const;

/** The abilities each user reads on the study's report (null: the report is not theirs to read, 404). */
async function abilitiesOf(studyId: string, users: readonly TWorldUser[]) {
  const seen: Partial<Record<TWorldUser, TReportAbilities | null>> = {};
  for (const user of users) {
    const response = await w.call(user, 'GET', `/worklist/${studyId}/report`);
    seen[user] = response.status === 200 ? (response.json as TReport).abilities : null;
    if (response.status !== 200) expect(response.status).toBe(404);
  }
  return seen;
}

const EVERYONE: readonly TWorldUser[] = [
  'admin',
  'facilityAdmin',
  'radiologist',
  'otherRadiologist',
  'reporter',
  'transcriptionist',
  'referrer',
];

describe('ZReport.abilities: what each caller may do with the report, from the report policy', () => {
  it('on an assigned draft: the assignee and admins write and finalize; other staff only read', async () => {
    const { studyId } = await w.studyWithReport({ status: 'DRAFTED' });
    expect(await abilitiesOf(studyId, EVERYONE)).toEqual({
      admin: { ...NONE, ...EDITOR, finalize: true },
      facilityAdmin: { ...NONE, choose_signers: true },
      radiologist: { ...NONE, ...EDITOR, finalize: true },
      otherRadiologist: NONE,
      reporter: NONE,
      transcriptionist: NONE,
      referrer: null,
    });
  });

  it('with collaboration on, the transcriptionist writes and submits but never finalizes', async () => {
    const { studyId } = await w.studyWithReport({ status: 'ASSIGNED', collaborationEnabled: true });
    const seen = await abilitiesOf(studyId, ['transcriptionist', 'radiologist']);
    expect(seen.transcriptionist).toEqual({ ...NONE, ...EDITOR, submit: true });
    expect(seen.radiologist).toEqual({ ...NONE, ...EDITOR, finalize: true });
  });

  it('a reporter assigned to the study submits for review (and, as its assignee, may finalize)', async () => {
    const { studyId } = await w.studyWithReport({ status: 'ASSIGNED', assignee: 'reporter' });
    expect((await abilitiesOf(studyId, ['reporter'])).reporter).toEqual({
      ...NONE,
      ...EDITOR,
      submit: true,
      finalize: true,
    });
  });

  it('in review: the assignee returns or finalizes; nobody submits again', async () => {
    const { studyId } = await w.studyWithReport({ status: 'IN_REVIEW', collaborationEnabled: true });
    const seen = await abilitiesOf(studyId, ['radiologist', 'admin', 'transcriptionist', 'otherRadiologist']);
    expect(seen.radiologist).toEqual({ ...NONE, ...EDITOR, return: true, finalize: true });
    expect(seen.admin).toEqual({ ...NONE, ...EDITOR, return: true, finalize: true });
    expect(seen.transcriptionist).toEqual({ ...NONE, ...EDITOR });
    expect(seen.otherRadiologist).toEqual(NONE);
  });

  it('once final: only the assignee and admins add addenda; every reader shares; the referrer reads it', async () => {
    const { studyId, report } = await w.studyWithReport({ status: 'FINAL', collaborationEnabled: true });
    expect(report.abilities).toEqual({ ...NONE, addendum: true, share: true });
    expect(await abilitiesOf(studyId, EVERYONE)).toEqual({
      admin: { ...NONE, addendum: true, share: true, choose_signers: true },
      facilityAdmin: { ...NONE, share: true, choose_signers: true },
      radiologist: { ...NONE, addendum: true, share: true },
      otherRadiologist: { ...NONE, share: true },
      reporter: { ...NONE, share: true },
      transcriptionist: { ...NONE, share: true },
      referrer: { ...NONE, share: true },
    });
  });

  it('share, preview and choose_signers per role follow the report-output and comm rules', async () => {
    // Not final: nobody shares; only editors preview; admins, the facility admin and editors choose
    // signers. A study of another facility is not seen at all (404 → null).
    const { studyId } = await w.studyWithReport({ status: 'DRAFTED', collaborationEnabled: true });
    const seen = await abilitiesOf(studyId, [...EVERYONE, 'otherFacilityTranscriptionist']);
    const pick = (user: TWorldUser) => {
      const abilities = seen[user];
      return abilities
        ? { share: abilities.share, preview: abilities.preview, choose: abilities.choose_signers }
        : null;
    };
    expect(pick('admin')).toEqual({ share: false, preview: true, choose: true });
    expect(pick('radiologist')).toEqual({ share: false, preview: true, choose: true });
    expect(pick('transcriptionist')).toEqual({ share: false, preview: true, choose: true });
    expect(pick('facilityAdmin')).toEqual({ share: false, preview: false, choose: true });
    expect(pick('otherRadiologist')).toEqual({ share: false, preview: false, choose: false });
    expect(pick('reporter')).toEqual({ share: false, preview: false, choose: false });
    expect(pick('referrer')).toBeNull();
    expect(pick('otherFacilityTranscriptionist')).toBeNull();
  });

  it('every write answers the abilities as they are after it (finalizing ends editing)', async () => {
    const { report } = await w.studyWithReport({ status: 'ASSIGNED' });
    expect(report.abilities).toEqual({ ...NONE, ...EDITOR, finalize: true });
    const final = await w.call('radiologist', 'POST', '/worklist/report/pdf-generate', {
      report_id: report.id,
      status: 'FINAL',
    });
    expect(final.status).toBe(200);
    expect((final.json as TReport).abilities).toEqual({ ...NONE, addendum: true, share: true });
  });
});
