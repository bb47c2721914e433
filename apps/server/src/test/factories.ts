// Test factories. Each builds what it needs (its own organisation and facility unless given one), so
// test files never share rows, never truncate tables, and can run in parallel.
import { randomUUID } from 'node:crypto';
import {
  generateIdentifier,
  modalityGroupOf,
  type TRadiologistUserType,
  type TRole,
  type TStudyStatus,
} from '@ris/domain';
import { hashPassword } from '../auth/passwords.ts';
import type { TDbOrTx } from '../db/client.ts';
import * as t from '../db/schema/index.ts';

type TOrganisation = typeof t.organisations.$inferSelect;
type TFacility = typeof t.facilities.$inferSelect;
type TUser = typeof t.users.$inferSelect;
type TPatient = typeof t.patients.$inferSelect;
type TStudy = typeof t.studies.$inferSelect;

export const TEST_PASSWORD = 'correct-horse-battery';
let cachedHash: Promise<string> | undefined;
/** One argon2id hash of TEST_PASSWORD per test file: hashing is deliberately slow. */
const testPasswordHash = () => (cachedHash ??= hashPassword(TEST_PASSWORD));

const unique = () => randomUUID().slice(0, 8);

function one<T>(rows: T[]): T {
  const [row] = rows;
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function buildOrganisation(
  db: TDbOrTx,
  values: Partial<typeof t.organisations.$inferInsert> = {},
): Promise<TOrganisation> {
  const id = unique();
  return one(
    await db
      .insert(t.organisations)
      .values({ name: `Org ${id}`, slug: `org-${id}`, ...values })
      .returning(),
  );
}

export async function buildFacility(
  db: TDbOrTx,
  values: Partial<typeof t.facilities.$inferInsert> = {},
): Promise<TFacility> {
  const organisationId = values.organisationId ?? (await buildOrganisation(db)).id;
  const id = unique();
  return one(
    await db
      .insert(t.facilities)
      .values({ name: `Facility ${id}`, code: `F${id}`, ...values, organisationId })
      .returning(),
  );
}

/** `count` facilities of one organisation, built one after another (their codes in that order). */
export async function buildFacilities(
  db: TDbOrTx,
  organisationId: string,
  count: number,
): Promise<TFacility[]> {
  const facilities: TFacility[] = [];
  for (let i = 0; i < count; i++) facilities.push(await buildFacility(db, { organisationId }));
  return facilities;
}

export type TBuildUserInput = Partial<typeof t.users.$inferInsert> & {
  /** Default RADIOLOGIST; null for a signed-up user nobody has given a role yet. */
  role?: TRole | null;
  /** Facilities the user works at (user_facilities rows); the first decides the organisation. */
  facilities?: TFacility[];
  userType?: TRadiologistUserType;
  password?: string | null;
};

export async function buildUser(db: TDbOrTx, input: TBuildUserInput = {}): Promise<TUser> {
  const { facilities = [], userType, password, ...values } = input;
  const role = input.role === undefined ? 'RADIOLOGIST' : input.role;
  // An explicit organisationId: null makes a user with no organisation (as sign-up does).
  let organisationId = 'organisationId' in values ? values.organisationId : facilities[0]?.organisationId;
  if (organisationId === undefined) {
    const facility = await buildFacility(db);
    organisationId = facility.organisationId;
    if (role !== 'ADMIN') facilities.push(facility);
  }
  const id = unique();
  const passwordHash =
    password === null
      ? null
      : password === undefined
        ? await testPasswordHash()
        : await hashPassword(password);
  const user = one(
    await db
      .insert(t.users)
      .values({
        email: `user-${id}@example.test`,
        firstName: 'Test',
        lastName: id,
        displayName: `Test ${id}`,
        passwordHash,
        ...values,
        role,
        organisationId,
      })
      .returning(),
  );
  if (role === 'RADIOLOGIST') {
    await db.insert(t.radiologistDetails).values({ userId: user.id, userType: userType ?? 'RADIOLOGIST' });
  }
  if (facilities.length > 0) {
    await db
      .insert(t.userFacilities)
      .values(facilities.map((facility) => ({ userId: user.id, facilityId: facility.id })));
  }
  return user;
}

export async function buildPatient(
  db: TDbOrTx,
  input: Partial<typeof t.patients.$inferInsert> & { facility?: TFacility } = {},
): Promise<TPatient> {
  const { facility: given, ...values } = input;
  const facility = given ?? (await buildFacility(db));
  return one(
    await db
      .insert(t.patients)
      .values({
        name: `Patient ${unique()}`,
        patientIdentifier: `MRN-${unique()}`,
        ...values,
        organisationId: facility.organisationId,
        facilityId: facility.id,
      })
      .returning(),
  );
}

export async function buildStudy(
  db: TDbOrTx,
  input: Partial<typeof t.studies.$inferInsert> & {
    facility?: TFacility;
    patient?: TPatient;
    status?: TStudyStatus;
  } = {},
): Promise<TStudy> {
  const { facility: given, patient: givenPatient, ...values } = input;
  const facility = given ?? (await buildFacility(db));
  const patient = givenPatient ?? (await buildPatient(db, { facility }));
  const modality = values.modality ?? 'CT';
  return one(
    await db
      .insert(t.studies)
      .values({
        accessionNumber: generateIdentifier(),
        studyUid: `1.2.826.0.1.3680043.8.498.${Date.now()}${Math.floor(Math.random() * 1e6)}`,
        patientName: patient.name,
        patientIdentifier: patient.patientIdentifier,
        studyDescription: 'CT Brain Plain',
        ...values,
        modality,
        modalityGroup: values.modalityGroup ?? modalityGroupOf(modality),
        organisationId: facility.organisationId,
        facilityId: facility.id,
        patientId: patient.id,
      })
      .returning(),
  );
}

/**
 * A study's report with the given plain text (content is that text as paragraphs, one per line, the
 * way reportHtmlToText reads it back). Default status CREATED; COMPLETED sets finalized_at.
 */
export async function buildReport(
  db: TDbOrTx,
  input: Partial<typeof t.reports.$inferInsert> & { study: TStudy; text?: string },
): Promise<typeof t.reports.$inferSelect> {
  const { study, text = '', ...values } = input;
  const escape = (line: string) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const content = text
    .split('\n')
    .map((line) => `<p>${escape(line)}</p>`)
    .join('');
  const status = values.status ?? 'CREATED';
  return one(
    await db
      .insert(t.reports)
      .values({
        content,
        contentText: text,
        ...values,
        status,
        finalizedAt: values.finalizedAt ?? (status === 'COMPLETED' ? new Date() : null),
        studyId: study.id,
        organisationId: study.organisationId,
      })
      .returning(),
  );
}
