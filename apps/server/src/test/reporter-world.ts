// An organisation with one facility and a reporter of it, for the worklist tests of a reporter's own
// studies: the reporter's token, an admin's of the organisation, and another organisation's admin's.
import { adminTokenFor, tokenFor } from './auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from './factories.ts';
import type { TTestServer } from './test-server.ts';

export async function buildReporterWorld(server: TTestServer) {
  const organisationId = (await buildOrganisation(server.db)).id;
  const facility = await buildFacility(server.db, { organisationId });
  const reporter = await buildUser(server.db, {
    role: 'RADIOLOGIST',
    userType: 'REPORTER',
    facilities: [facility],
  });
  const foreign = await buildFacility(server.db);
  const tokens = {
    reporter: await tokenFor(server, reporter),
    admin: await adminTokenFor(server, organisationId),
    foreign: await adminTokenFor(server, foreign.organisationId),
  };
  return { organisationId, facility, reporterId: reporter.id, tokens };
}
