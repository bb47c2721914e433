import {
  DEFAULT_TURNAROUND_TARGETS,
  generateIdentifier,
  modalityGroupOf,
  turnaroundTargetMinutes,
  type TPriorityTag,
  type TStudyStatus,
} from '@ris/domain';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords.ts';
import type { TDb, TTx } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';
import * as t from '../db/schema/index.ts';
import {
  CLINICAL_HISTORIES,
  DEMO_ACCOUNTS,
  DEMO_FACILITIES,
  DEMO_MACROS,
  DEMO_ORGANISATION,
  DEMO_TEMPLATES,
  OTHER_REFERRING_PHYSICIANS,
  PATIENT_NAMES,
  PRIORITY_WEIGHTS,
  STUDY_KINDS,
} from './demo-data.ts';
import { enqueueLanguageModelBuild } from '../features/dictation/language-model/language-model.ts';
import { pocketsphinxAvailable } from '../integrations/speech/pocketsphinx/pocketsphinx-library.ts';
import { createRandom, type TRandom } from './random.ts';
import { REPORT_TEXTS, reportHtml } from './report-texts.ts';

export { DEMO_ACCOUNTS } from './demo-data.ts';

/** How many studies of each status the demo has (240 in all, over the last 30 days). */
export const DEMO_STATUS_COUNTS: Readonly<Record<TStudyStatus, number>> = {
  ORDERED: 30,
  TO_READ: 50,
  ASSIGNED: 40,
  DRAFTED: 30,
  IN_REVIEW: 15,
  FINAL: 65,
  DELETED: 10,
};

const PATH: TStudyStatus[] = ['ORDERED', 'TO_READ', 'ASSIGNED', 'DRAFTED', 'IN_REVIEW', 'FINAL'];
const SEED_LOCK_KEY = 725_471_094;
const DAY_MS = 86_400_000;

export type TSeedOptions = { password: string; now?: Date; randomSeed?: number };

/** True when the database holds no organisation and no user: the only state the seed writes into. */
export async function isDatabaseEmpty(db: TDb | TTx): Promise<boolean> {
  const [row] = await queryRows<{ used: boolean }>(
    db,
    sql`SELECT (EXISTS (SELECT 1 FROM organisations) OR EXISTS (SELECT 1 FROM users)) AS used`,
  );
  return row?.used === false;
}

function plainText(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Statuses a study passed through to reach `status` (DELETED ones were deleted before reporting). */
function historyOf(status: TStudyStatus, random: TRandom): TStudyStatus[] {
  if (status === 'DELETED') return [...PATH.slice(0, random.int(1, 2)), 'DELETED'];
  const path = PATH.slice(0, PATH.indexOf(status) + 1);
  // Half of the final reports were finalized straight from DRAFTED, without a review hand-off.
  return status === 'FINAL' && random.chance(0.5) ? path.filter((s) => s !== 'IN_REVIEW') : path;
}

/**
 * Milliseconds between two status steps of a demo study. A final study's steps spread over its
 * turnaround: a share of its priority's target, most well within it and about one in eight past it,
 * so the home's turnaround figures and the worklist's overdue badges look like a real group's week
 * (never later than a minute ago). The others' steps are 15 minutes apart. Its own PRNG, so the rest
 * of the demo data stays what it was.
 */
function stepMsOf(
  plan: {
    status: TStudyStatus;
    history: TStudyStatus[];
    createdAt: Date;
    row: { priorityTag: TPriorityTag | null };
  },
  now: Date,
  random: TRandom,
): number {
  if (plan.status !== 'FINAL') return 15 * 60_000;
  const target = turnaroundTargetMinutes(plan.row.priorityTag, DEFAULT_TURNAROUND_TARGETS);
  const share = random.chance(0.12) ? 1 + random.next() * 0.8 : 0.15 + random.next() * 0.8;
  const turnaroundMs = Math.min(
    Math.max(20, Math.round(target * share)) * 60_000,
    now.getTime() - plan.createdAt.getTime() - 60_000,
  );
  return turnaroundMs / Math.max(1, plan.history.length - 1);
}

/**
 * Seeds the demo organisation into an empty database, in one transaction; does nothing (and returns
 * false) when the database already has an organisation or a user. Safe when replicas race: the
 * first takes an advisory lock, the others then find the database non-empty.
 */
export async function seedDemoIfEmpty(db: TDb, options: TSeedOptions): Promise<boolean> {
  // Every start of an existing database ends here: skip the six argon2 hashes (~0.3 s of CPU).
  if (!(await isDatabaseEmpty(db))) return false;
  const hashes = await Promise.all(DEMO_ACCOUNTS.map(() => hashPassword(options.password)));
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    if (!(await isDatabaseEmpty(tx))) return false;
    await seedDemo(tx, hashes, options.now ?? new Date(), createRandom(options.randomSeed ?? 20261121));
    return true;
  });
}

async function seedDemo(tx: TTx, hashes: string[], now: Date, random: TRandom): Promise<void> {
  const [organisation] = await tx.insert(t.organisations).values(DEMO_ORGANISATION).returning();
  if (!organisation) throw new Error('organisation insert returned nothing');
  const organisationId = organisation.id;
  const facilityRows = await tx
    .insert(t.facilities)
    .values(DEMO_FACILITIES.map((facility) => ({ ...facility, organisationId })))
    .returning();

  const userRows = await tx
    .insert(t.users)
    .values(
      DEMO_ACCOUNTS.map((account, index) => ({
        organisationId,
        email: account.email,
        passwordHash: hashes[index] ?? null,
        role: account.role,
        firstName: account.firstName,
        lastName: account.lastName,
        displayName: account.displayName,
      })),
    )
    .returning();
  const userOf = (key: (typeof DEMO_ACCOUNTS)[number]['key']) => {
    const index = DEMO_ACCOUNTS.findIndex((account) => account.key === key);
    const row = userRows[index];
    if (!row) throw new Error(`demo user ${key} missing`);
    return row;
  };
  const facilityAt = (index: number) => {
    const row = facilityRows[index];
    if (!row) throw new Error(`demo facility ${index} missing`);
    return row;
  };

  await tx.insert(t.radiologistDetails).values(
    DEMO_ACCOUNTS.flatMap((account) =>
      account.userType
        ? [
            {
              userId: userOf(account.key).id,
              userType: account.userType,
              description: account.description ?? null,
            },
          ]
        : [],
    ),
  );
  await tx.insert(t.userFacilities).values(
    DEMO_ACCOUNTS.flatMap((account) =>
      account.facilities.map((index) => ({
        userId: userOf(account.key).id,
        facilityId: facilityAt(index).id,
      })),
    ),
  );

  const referrer = userOf('referrer');
  const physicians = await tx
    .insert(t.referringPhysicians)
    .values([
      { organisationId, userId: referrer.id, name: referrer.displayName, email: referrer.email },
      ...OTHER_REFERRING_PHYSICIANS.map((name) => ({ organisationId, name })),
    ])
    .returning();

  const patients = await tx
    .insert(t.patients)
    .values(
      PATIENT_NAMES.map((name, index) => {
        const birthYear = random.int(1940, 2020);
        return {
          organisationId,
          facilityId: facilityAt(index % facilityRows.length).id,
          patientIdentifier: `MRN${String(100_000 + index * 37).padStart(7, '0')}`,
          name,
          sex: random.pick(['M', 'F', 'O'] as const),
          birthDate: `${birthYear}-${String(random.int(1, 12)).padStart(2, '0')}-${String(random.int(1, 28)).padStart(2, '0')}`,
        };
      }),
    )
    .returning();

  const radiologist = userOf('radiologist');
  const reporter = userOf('reporter');
  const admin = userOf('admin');
  const statuses = Object.entries(DEMO_STATUS_COUNTS).flatMap(([status, count]) =>
    Array.from({ length: count }, () => status as TStudyStatus),
  );

  const planned = statuses.map((status, index) => {
    const kind = STUDY_KINDS[index % STUDY_KINDS.length] ?? STUDY_KINDS[0];
    if (!kind) throw new Error('no study kinds');
    const facilityIndex = random.int(0, facilityRows.length - 1);
    const facility = facilityAt(facilityIndex);
    // A patient record belongs to one facility, as an order or an archive's study makes it.
    const patient = random.pick(patients.filter((candidate) => candidate.facilityId === facility.id));
    const physician = random.pick(physicians);
    const createdAt = new Date(now.getTime() - random.int(5 * 60_000, 30 * DAY_MS - 60_000));
    const reportable = ['ASSIGNED', 'DRAFTED', 'IN_REVIEW', 'FINAL'].includes(status);
    // The reporter works at the first two facilities only; elsewhere the radiologist reads.
    const assignee = reportable ? (facilityIndex < 2 && random.chance(0.35) ? reporter : radiologist) : null;
    return {
      status,
      history: historyOf(status, random),
      createdAt,
      row: {
        organisationId,
        facilityId: facility.id,
        patientId: patient.id,
        studyUid: status === 'ORDERED' ? null : `1.2.826.0.1.3680043.8.498.${10_000_000 + index * 7919}`,
        accessionNumber: generateIdentifier(),
        patientName: patient.name,
        patientIdentifier: patient.patientIdentifier,
        patientSex: patient.sex,
        patientBirthDate: patient.birthDate,
        modality: kind.modality,
        modalityGroup: modalityGroupOf(kind.modality),
        studyDescription: kind.description,
        bodyPart: kind.bodyPart,
        studyDatetime: new Date(createdAt.getTime() - random.int(2, 90) * 60_000),
        seriesCount: status === 'ORDERED' ? 0 : random.int(kind.series[0], kind.series[1]),
        instanceCount: status === 'ORDERED' ? 0 : random.int(20, 900),
        status,
        priorityTag: random.pick(PRIORITY_WEIGHTS),
        lastAssignedUserId: assignee?.id ?? null,
        assignedAt: assignee ? new Date(createdAt.getTime() + 10 * 60_000) : null,
        referringPhysicianId: physician.id,
        referringPhysicianName: physician.name,
        clinicalHistory: random.pick(CLINICAL_HISTORIES),
        collaborationEnabled: status === 'DRAFTED' && random.chance(0.3),
        createdBy: admin.id,
        deletedAt: status === 'DELETED' ? new Date(createdAt.getTime() + 30 * 60_000) : null,
        deletedBy: status === 'DELETED' ? admin.id : null,
        createdAt,
        updatedAt: createdAt,
      },
    };
  });

  const turnaroundRandom = createRandom(20261126);
  const stepMs = planned.map((plan) => stepMsOf(plan, now, turnaroundRandom));
  const studyRows = await tx
    .insert(t.studies)
    .values(
      planned.map((plan, index) => {
        const assignedAfterMs = 2 * (stepMs[index] ?? 0); // ASSIGNED is the third step
        const assignedAt = new Date(Math.min(plan.createdAt.getTime() + assignedAfterMs, now.getTime()));
        return { ...plan.row, assignedAt: plan.row.assignedAt ? assignedAt : null };
      }),
    )
    .returning();
  const finalAt = new Map(
    studyRows.map((study, index) => {
      const steps = (planned[index]?.history.length ?? 1) - 1;
      return [study.id, new Date(study.createdAt.getTime() + steps * (stepMs[index] ?? 0))];
    }),
  );

  await tx.insert(t.studyStatusHistory).values(
    studyRows.flatMap((study, index) => {
      const plan = planned[index];
      if (!plan) return [];
      return plan.history.map((toStatus, step) => ({
        studyId: study.id,
        fromStatus: step === 0 ? null : (plan.history[step - 1] ?? null),
        toStatus,
        changedBy: ['ASSIGNED', 'TO_READ', 'ORDERED', 'DELETED'].includes(toStatus)
          ? admin.id
          : (study.lastAssignedUserId ?? admin.id),
        createdAt: new Date(plan.createdAt.getTime() + step * (stepMs[index] ?? 0)),
      }));
    }),
  );

  const withReports = studyRows.filter((study) => ['DRAFTED', 'IN_REVIEW', 'FINAL'].includes(study.status));
  const reportRows = await tx
    .insert(t.reports)
    .values(
      withReports.map((study) => {
        const kind = STUDY_KINDS.find((candidate) => candidate.description === study.studyDescription);
        if (!kind) throw new Error(`no demo study kind for ${study.studyDescription ?? 'a study'}`);
        const content = reportHtml(kind.description, random.pick(REPORT_TEXTS[kind.report]));
        const final = study.status === 'FINAL';
        const author = study.lastAssignedUserId ?? radiologist.id;
        const finalizedAt = finalAt.get(study.id) ?? now;
        return {
          studyId: study.id,
          organisationId,
          status: final ? ('COMPLETED' as const) : ('DRAFTED' as const),
          content,
          contentText: plainText(content),
          createdBy: author,
          updatedBy: author,
          finalizedBy: final ? author : null,
          finalizedAt: final ? finalizedAt : null,
        };
      }),
    )
    .returning();
  await tx.insert(t.reportVersions).values(
    reportRows.map((report) => ({
      reportId: report.id,
      version: 1,
      kind: 'EDIT' as const,
      content: report.content,
      createdBy: report.createdBy,
    })),
  );
  const finalReports = reportRows.filter((report) => report.status === 'COMPLETED');
  await tx.insert(t.reportSignatures).values(
    finalReports.map((report) => ({
      reportId: report.id,
      userId: report.finalizedBy ?? radiologist.id,
      signedAt: report.finalizedAt ?? now,
    })),
  );

  await tx.insert(t.templates).values(
    DEMO_TEMPLATES.map((template) => ({
      organisationId: template.scope === 'DEFAULT' ? null : organisationId,
      scope: template.scope,
      ownerUserId: template.scope === 'USER' ? radiologist.id : null,
      name: template.name,
      modalityGroup: template.modalityGroup,
      bodyPart: template.bodyPart,
      content: template.content ?? '',
      createdBy: template.scope === 'USER' ? radiologist.id : admin.id,
    })),
  );
  await tx
    .insert(t.macros)
    .values(
      [radiologist, reporter].flatMap((user) => DEMO_MACROS.map((macro) => ({ ...macro, userId: user.id }))),
    );
  // The offline dictation engine's model of the demo's templates, macros and reports, built at once.
  if (pocketsphinxAvailable()) await enqueueLanguageModelBuild(tx, organisationId, { immediate: true });
}
