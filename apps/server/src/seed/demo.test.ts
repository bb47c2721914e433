import { MODALITIES, PRIORITY_TAGS, STUDY_STATUSES } from '@ris/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../auth/passwords.ts';
import type { TDatabase } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';
import * as t from '../db/schema/index.ts';
import { buildOrganisation } from '../test/factories.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { DEMO_ACCOUNTS, DEMO_STATUS_COUNTS, seedDemoIfEmpty } from './demo.ts';

const NOW = new Date('2026-11-21T10:00:00Z');
let database: TDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('demo seed', () => {
  it('seeds an empty database once, and a second run changes nothing', async () => {
    expect(await seedDemoIfEmpty(database.db, { password: 'demo-radiology', now: NOW })).toBe(true);
    const before = await database.db.$count(t.studies);
    expect(await seedDemoIfEmpty(database.db, { password: 'other-password', now: NOW })).toBe(false);
    expect(await database.db.$count(t.studies)).toBe(before);
  });

  it('creates the organisation, three facilities and one user per role with the demo password', async () => {
    const [organisation] = await database.db.select().from(t.organisations);
    expect(organisation?.name).toBe('Demo Teleradiology');
    expect(await database.db.$count(t.facilities)).toBe(3);
    const users = await database.db.select().from(t.users);
    expect(users.map((user) => user.email).sort()).toEqual(
      DEMO_ACCOUNTS.map((account) => account.email).sort(),
    );
    for (const user of users) {
      expect(user.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(user.passwordHash ?? '', 'demo-radiology')).toBe(true);
    }
    const reporter = users.find((user) => user.email === 'reporter@demo.test');
    const [details] = await database.db
      .select()
      .from(t.radiologistDetails)
      .where(eq(t.radiologistDetails.userId, reporter?.id ?? ''));
    expect(details?.userType).toBe('REPORTER');
  });

  it('spreads at least 200 studies over every status, modality group, priority tag, facility and 30 days', async () => {
    const studies = await database.db.select().from(t.studies);
    expect(studies.length).toBeGreaterThanOrEqual(200);
    expect(new Set(studies.map((study) => study.status))).toEqual(new Set(STUDY_STATUSES));
    expect(new Set(studies.map((study) => study.modalityGroup))).toEqual(new Set(MODALITIES));
    expect(new Set(studies.map((study) => study.priorityTag).filter(Boolean))).toEqual(
      new Set(PRIORITY_TAGS),
    );
    expect(new Set(studies.map((study) => study.facilityId)).size).toBe(3);
    const oldest = Math.min(...studies.map((study) => study.createdAt.getTime()));
    expect(NOW.getTime() - oldest).toBeLessThanOrEqual(30 * 86_400_000);
    expect(NOW.getTime() - oldest).toBeGreaterThan(20 * 86_400_000);
    for (const [status, count] of Object.entries(DEMO_STATUS_COUNTS)) {
      expect(
        studies.filter((study) => study.status === status),
        status,
      ).toHaveLength(count);
    }
  });

  it('assigns studies to radiologist@ and reporter@, and gives FINAL studies completed report text', async () => {
    const rows = await queryRows<{ email: string; status: string; n: number }>(
      database.db,
      sql`SELECT u.email, s.status::text AS status, count(*)::int AS n FROM studies s
          JOIN users u ON u.id = s.last_assigned_user_id GROUP BY 1, 2`,
    );
    expect(rows.some((row) => row.email === 'radiologist@demo.test' && row.status === 'ASSIGNED')).toBe(true);
    expect(rows.some((row) => row.email === 'reporter@demo.test' && row.status === 'ASSIGNED')).toBe(true);
    const finals = await queryRows<{ report_status: string | null; content_text: string | null }>(
      database.db,
      sql`SELECT r.status::text AS report_status, r.content_text FROM studies s
          LEFT JOIN reports r ON r.study_id = s.id WHERE s.status = 'FINAL'`,
    );
    expect(finals).toHaveLength(DEMO_STATUS_COUNTS.FINAL);
    for (const report of finals) {
      expect(report.report_status).toBe('COMPLETED');
      expect(report.content_text?.length).toBeGreaterThan(40);
    }
  });

  it('records a status history ending in each study’s status, and seeds templates and macros', async () => {
    const mismatched = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM studies s WHERE s.status <> (
            SELECT h.to_status FROM study_status_history h WHERE h.study_id = s.id
            ORDER BY h.created_at DESC LIMIT 1)`,
    );
    expect(mismatched[0]?.n).toBe(0);
    const scopes = await database.db.select({ scope: t.templates.scope }).from(t.templates);
    expect(new Set(scopes.map((row) => row.scope))).toEqual(new Set(['DEFAULT', 'ORGANISATION', 'USER']));
    expect(await database.db.$count(t.macros)).toBeGreaterThan(0);
  });

  it('writes each report about its own study: the body part and modality, never another', async () => {
    // What a report of each kind must mention; and the words of other body parts it must not.
    const expected: Record<string, RegExp> = {
      'CT Brain Plain': /intracranial|cerebral/i,
      'CT Chest HRCT': /lung/i,
      'PET-CT Whole Body': /FDG/,
      'CT Abdomen and Pelvis with Contrast': /liver|appendi/i,
      'MRI Brain with Contrast': /brain|cerebral|white matter/i,
      'MRI Lumbar Spine': /lumbar|L4–L5/i,
      'MRI Right Knee': /cruciate|menisc/i,
      'USG Whole Abdomen': /liver|gall bladder/i,
      'USG Obstetric (Anomaly Scan)': /fetus|pregnancy/i,
      'X-Ray Chest PA View': /lung/i,
      'X-Ray Left Wrist AP/Lateral': /radius|carpal/i,
      'NM Bone Scan': /skelet/i,
    };
    const brain = /brain|cerebr|intracranial|ventricle|gadolinium/i;
    const reports = await queryRows<{ description: string; body_part: string; content_text: string }>(
      database.db,
      sql`SELECT s.study_description AS description, s.body_part, r.content_text FROM reports r
          JOIN studies s ON s.id = r.study_id`,
    );
    expect(reports.length).toBeGreaterThan(60);
    expect(new Set(reports.map((report) => report.description))).toEqual(new Set(Object.keys(expected)));
    for (const report of reports) {
      const text = report.content_text;
      expect(text.startsWith(report.description), text).toBe(true);
      expect(text, report.description).toMatch(expected[report.description] ?? /^$/);
      if (report.body_part === 'HEAD') expect(text).not.toMatch(/lung|liver|knee|fetus|FDG/i);
      else expect(text, report.description).not.toMatch(brain);
    }
  });

  it('finalizes reports at varied turnarounds: urgent ones sooner, about one in eight past its target, none in the future', async () => {
    const rows = await queryRows<{ priority_tag: string | null; minutes: number; target: number }>(
      database.db,
      sql`select s.priority_tag, extract(epoch from r.finalized_at - s.created_at) / 60 as minutes,
            case s.priority_tag when 'EMERGENCY' then 60 when 'URGENT' then 240 when 'MLC' then 360 else 1440 end as target
          from reports r join studies s on s.id = r.study_id where r.finalized_at is not null`,
    );
    expect(rows.length).toBeGreaterThan(20);
    const minutes = rows.map((row) => Number(row.minutes));
    expect(Math.max(...minutes)).toBeLessThanOrEqual(1.8 * 1440 + 1);
    expect(new Set(minutes.map(Math.round)).size).toBeGreaterThan(rows.length / 2);
    const late = rows.filter((row) => Number(row.minutes) > Number(row.target)).length;
    expect(late).toBeGreaterThan(0);
    expect(late).toBeLessThan(rows.length / 3);
    const median = (tag: string | null) => {
      const sorted = rows
        .filter((row) => row.priority_tag === tag)
        .map((row) => Number(row.minutes))
        .sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
    };
    expect(median('EMERGENCY')).toBeLessThan(median('ROUTINE'));
    const [future] = await queryRows<{ count: number }>(
      database.db,
      sql`select count(*)::int as count from reports r join studies s on s.id = r.study_id
          where r.finalized_at > ${NOW.toISOString()}::timestamptz or s.assigned_at > ${NOW.toISOString()}::timestamptz
             or r.finalized_at < s.created_at`,
    );
    expect(future?.count).toBe(0);
  });

  it('finds accented patient names without accents (search_text)', async () => {
    const rows = await queryRows<{ patient_name: string }>(
      database.db,
      sql`SELECT patient_name FROM studies WHERE search_text LIKE '%' || lower(ris_unaccent(${'zoe muller'})) || '%'`,
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.patient_name === 'Zoë Müller')).toBe(true);
  });

  it("places each study at its patient's facility (a facility's staff edit the patients they see)", async () => {
    const elsewhere = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM studies s JOIN patients p ON p.id = s.patient_id
          WHERE p.facility_id <> s.facility_id`,
    );
    expect(elsewhere[0]?.n).toBe(0);
  });
});

describe('demo seed on a database in use', () => {
  it('never touches a database that already has an organisation', async () => {
    const other = await createTestDatabase();
    try {
      await buildOrganisation(other.db, { name: 'Real Hospital Group' });
      expect(await seedDemoIfEmpty(other.db, { password: 'demo-radiology' })).toBe(false);
      expect(await other.db.$count(t.organisations)).toBe(1);
      expect(await other.db.$count(t.users)).toBe(0);
      expect(await other.db.$count(t.studies)).toBe(0);
    } finally {
      await other.close();
    }
  });
});
