import {
  NO_WORKLIST_ITEM_ABILITIES as NONE,
  type TBulkResult,
  type TWorklistItem,
  type TWorklistItemAbilities,
  type TWorklistListResponse,
} from '@ris/domain';
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

const ROLES: readonly TWorldUser[] = [
  'admin',
  'facilityAdmin',
  'radiologist',
  'otherRadiologist',
  'transcriptionist',
  'referrer',
];

/** What each user reads as the item's abilities, from GET /worklist/{id} and from the list page. */
async function abilitiesOf(studyId: string, users: readonly TWorldUser[]) {
  const single: Partial<Record<TWorldUser, TWorklistItemAbilities>> = {};
  const listed: Partial<Record<TWorldUser, TWorklistItemAbilities | undefined>> = {};
  for (const user of users) {
    const one = await w.call(user, 'GET', `/worklist/${studyId}`);
    expect(one.status, `${user}: ${one.text}`).toBe(200);
    single[user] = (one.json as TWorklistItem).abilities;
    const page = await w.call(user, 'GET', '/worklist?limit=100&date_range_type=CUSTOM');
    expect(page.status, page.text).toBe(200);
    listed[user] = (page.json as TWorklistListResponse).items.find((item) => item.id === studyId)?.abilities;
  }
  return { single, listed };
}

describe('ZWorklistItem.abilities: what each caller may do with the study, from the worklist policy', () => {
  it('on a study assigned to the radiologist, per role, the same in the item and in the list page', async () => {
    const study = await w.study({ status: 'ASSIGNED' });
    const { single, listed } = await abilitiesOf(study.id, ROLES);
    expect(single).toEqual({
      admin: {
        ...NONE,
        duplicate: true,
        edit_details: true,
        set_priority: true,
        toggle_collaboration: true,
        assign_anyone: true,
        unassign: true,
        delete: true,
        write_report: true,
        manage_documents: true,
      },
      facilityAdmin: {
        ...NONE,
        duplicate: true,
        edit_details: true,
        set_priority: true,
        assign_anyone: true,
        unassign: true,
        manage_documents: true,
      },
      radiologist: {
        ...NONE,
        set_priority: true,
        toggle_collaboration: true,
        unassign: true,
        write_report: true,
        manage_documents: true,
      },
      otherRadiologist: NONE,
      transcriptionist: {
        ...NONE,
        duplicate: true,
        edit_details: true,
        set_priority: true,
        manage_documents: true,
      },
      referrer: NONE,
    });
    // The page is cached for everyone who sees it; each caller still gets their own abilities.
    expect(listed).toEqual(single);
  });

  it('lets a radiologist claim an unassigned study, and a transcriptionist write while collaboration is on', async () => {
    const open = await w.study({ status: 'TO_READ', assignee: null });
    const { single } = await abilitiesOf(open.id, ['radiologist', 'referrer']);
    expect(single.radiologist).toEqual({ ...NONE, assign_self: true });
    expect(single.referrer).toEqual(NONE);

    const shared = await w.study({ status: 'DRAFTED', collaborationEnabled: true });
    expect((await abilitiesOf(shared.id, ['transcriptionist'])).single.transcriptionist).toMatchObject({
      write_report: true,
      toggle_collaboration: false,
    });
  });

  it('offers nothing that a final study no longer allows', async () => {
    const final = await w.study({ status: 'FINAL' });
    const { single } = await abilitiesOf(final.id, ['admin', 'radiologist']);
    expect(single.admin).toEqual({ ...NONE, duplicate: true, edit_details: true, manage_documents: true });
    expect(single.radiologist).toEqual(NONE);
  });

  it('answers bulk actions with the caller’s abilities on the changed items', async () => {
    const study = await w.study({ status: 'TO_READ', assignee: null });
    const response = await w.call('radiologist', 'PUT', '/worklist/assign/radiologist', {
      worklist_ids: [study.id],
      last_assigned_user_fk: w.users.radiologist.id,
    });
    expect(response.status, response.text).toBe(200);
    const [item] = (response.json as TBulkResult).updated_worklists;
    expect(item?.abilities).toEqual({
      ...NONE,
      set_priority: true,
      toggle_collaboration: true,
      unassign: true,
      write_report: true,
      manage_documents: true,
    });
  });
});

describe('the OpenAPI document', () => {
  type TDocument = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  const answer = (document: TDocument, path: string, method = 'get') =>
    JSON.stringify(document.paths[`/api/v1${path}`]?.[method]?.responses['200'] ?? null);

  it('documents the abilities of items, reports, templates and macros, and the user’s capabilities', async () => {
    const document = (await server.request('GET', '/api/v1/openapi.json')).json as TDocument;
    const item = answer(document, '/worklist/{id}');
    expect(item).toContain('"abilities"');
    expect(item).toContain('"write_report"');
    expect(answer(document, '/worklist')).toContain('"assign_anyone"');
    expect(answer(document, '/worklist/{id}/report')).toContain('"addendum"');
    expect(answer(document, '/radiologist/template/{id}')).toContain('"abilities"');
    expect(answer(document, '/radiologist/macros/{user_id}')).toContain('"abilities"');
    expect(answer(document, '/user/details/{id}')).toContain('"create_organisation_templates"');
  });
});
