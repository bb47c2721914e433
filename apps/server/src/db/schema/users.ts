// People: users (every role), the radiologist details, facility assignments, and referring
// physicians (who may or may not have an account).
import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, primaryId, timestamps, timestamptz } from './columns.ts';
import { radiologistUserTypeEnum, recordStatusEnum, roleEnum, staffKindEnum } from './enums.ts';
import { storedFiles } from './files.ts';
import { facilities, organisations } from './organisations.ts';

/**
 * A user of any role. Sign-up creates a user with no organisation and no role; verification refuses
 * such a user until an admin assigns both. Users are deactivated (status), never deleted, once they
 * have done anything: authorship columns elsewhere restrict deletion.
 */
export const users = pgTable(
  'users',
  {
    id: primaryId(),
    organisationId: uuid('organisation_id').references((): AnyPgColumn => organisations.id, {
      onDelete: 'restrict',
    }),
    email: text('email').notNull(),
    /** argon2id hash; null for accounts that cannot sign in with a password (invited, OIDC later). */
    passwordHash: text('password_hash'),
    role: roleEnum('role'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    displayName: text('display_name').notNull().default(''),
    status: recordStatusEnum('status').notNull().default('ACTIVE'),
    staffKind: staffKindEnum('staff_kind'),
    phone: text('phone'),
    signatureFileId: uuid('signature_file_id').references((): AnyPgColumn => storedFiles.id, {
      onDelete: 'set null',
    }),
    /** Tokens issued before this instant are refused (sign-out everywhere, password change). */
    tokensValidAfter: timestamptz('tokens_valid_after'),
    lastSignInAt: timestamptz('last_sign_in_at'),
    ...timestamps(),
  },
  (t) => [
    // Sign-in and GET /user/email/{email} look users up case-insensitively.
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    index('users_organisation_role_idx').on(t.organisationId, t.role),
  ],
);

/** radiologist_details of a RADIOLOGIST user (user_type RADIOLOGIST or REPORTER). */
export const radiologistDetails = pgTable('radiologist_details', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  userType: radiologistUserTypeEnum('user_type').notNull().default('RADIOLOGIST'),
  /** The spec's radiologist_description (shown under the signature). */
  description: text('description'),
  qualification: text('qualification'),
  registrationNumber: text('registration_number'),
  ...timestamps(),
});

/**
 * The facilities a user works for: a radiologist's or transcriptionist's facility_fks and a facility
 * admin's own facility. Admins see every facility of their organisation without rows here.
 */
export const userFacilities = pgTable(
  'user_facilities',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    facilityId: uuid('facility_id')
      .notNull()
      .references(() => facilities.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'user_facilities_pk', columns: [t.userId, t.facilityId] }),
    index('user_facilities_facility_idx').on(t.facilityId),
  ],
);

/**
 * A referring physician of an organisation; user_id links the REFERRING_PHYSICIAN account when
 * there is one. search_text is lower-cased and unaccented for substring search (pg_trgm).
 */
export const referringPhysicians = pgTable(
  'referring_physicians',
  {
    id: primaryId(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'restrict' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    registrationNumber: text('registration_number'),
    status: recordStatusEnum('status').notNull().default('ACTIVE'),
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`lower(ris_unaccent(coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '')))`,
      ),
    ...timestamps(),
  },
  (t) => [
    index('referring_physicians_organisation_name_idx').on(t.organisationId, t.name),
    index('referring_physicians_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    uniqueIndex('referring_physicians_user_uq')
      .on(t.userId)
      .where(sql`${t.userId} is not null`),
  ],
);

/**
 * The facilities a referring physician refers to (the screen's facility filter; a facility admin
 * manages the physicians of their facility). A physician without rows refers to the whole organisation.
 */
export const referringPhysicianFacilities = pgTable(
  'referring_physician_facilities',
  {
    referringPhysicianId: uuid('referring_physician_id')
      .notNull()
      .references(() => referringPhysicians.id, { onDelete: 'cascade' }),
    facilityId: uuid('facility_id')
      .notNull()
      .references(() => facilities.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({
      name: 'referring_physician_facilities_pk',
      columns: [t.referringPhysicianId, t.facilityId],
    }),
    index('referring_physician_facilities_facility_idx').on(t.facilityId),
  ],
);
