// The set-up of the worklist search's route tests: an organisation of two facilities and another
// organisation's facility, each seeded alike, with the organisation's admin, a radiologist of its
// first facility and the other organisation's admin signed in; then the statistics that decide how a
// search reads (the pair and trigram indexes' keys) analysed.
import { sql } from 'drizzle-orm';
import { tokenFor } from './auth-helpers.ts';
import { buildFacility, buildOrganisation, buildUser } from './factories.ts';
import { seedingStudies } from './seeding-studies.ts';
import type { TTestServer } from './test-server.ts';

/** A facility as the factories build it, for the seed. */
export type TSeededFacility = Awaited<ReturnType<typeof buildFacility>>;

export type TSearchOrganisations = {
  organisationId: string;
  /** The radiologist's facility, the first of the organisation's two. */
  staffFacility: string;
  foreignOrganisationId: string;
  admin: { id: string; email: string };
  /** The radiologist of the first facility. */
  radiologist: { id: string; email: string };
  tokens: { admin: string; radiologist: string; foreign: string };
};

/** Builds the organisations, seeds each facility with `seed` and signs the three users in. */
export async function searchOrganisations(
  server: TTestServer,
  seed: (facility: TSeededFacility) => Promise<void>,
): Promise<TSearchOrganisations> {
  const organisationId = (await buildOrganisation(server.db)).id;
  const [a, b] = [
    await buildFacility(server.db, { organisationId }),
    await buildFacility(server.db, { organisationId }),
  ];
  const foreign = await buildFacility(server.db);
  await seedingStudies(server.db, async () => {
    await seed(a);
    await seed(b);
    await seed(foreign);
  });
  const admin = await buildUser(server.db, { role: 'ADMIN', organisationId });
  const radiologist = await buildUser(server.db, { role: 'RADIOLOGIST', facilities: [a] });
  const foreignAdmin = await buildUser(server.db, { role: 'ADMIN', organisationId: foreign.organisationId });
  await server.db.execute(sql`analyze studies`);
  return {
    organisationId,
    staffFacility: a.id,
    foreignOrganisationId: foreign.organisationId,
    admin,
    radiologist,
    tokens: {
      admin: await tokenFor(server, admin),
      radiologist: await tokenFor(server, radiologist),
      foreign: await tokenFor(server, foreignAdmin),
    },
  };
}
