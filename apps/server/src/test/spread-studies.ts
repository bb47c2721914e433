// Thousands of studies inserted in one statement for the worklist's search tests: studies g = 1..count
// spread over facilities in turn (g % n), each column an SQL expression of g. Each facility gets one
// study through the factories first, whose patient the inserted studies share.
import { sql, type SQL } from 'drizzle-orm';
import type { TDbOrTx } from '../db/client.ts';
import { queryRows } from '../db/rows.ts';
import { buildStudy, type buildFacility } from './factories.ts';

type TFacility = Awaited<ReturnType<typeof buildFacility>>;

/** The inserted columns, as SQL expressions of `g` (the study's number, 1..count). */
export type TSpreadColumns = {
  accession: SQL;
  patientName: SQL;
  patientIdentifier: SQL;
  description: SQL;
  modality: SQL;
  /** A modality_group. */
  modalityGroup: SQL;
  /** A study_status. */
  status: SQL;
  /** A priority_tag or null; none when absent. */
  priorityTag?: SQL;
  /** created_at and updated_at. */
  arrival: SQL;
  /** study_datetime; the arrival when absent. */
  studyDatetime?: SQL;
};

export async function insertSpreadStudies(
  db: TDbOrTx,
  facilities: readonly TFacility[],
  count: number,
  columns: TSpreadColumns,
): Promise<void> {
  const [first] = facilities;
  if (!first) throw new Error('no facility');
  for (const facility of facilities) {
    await buildStudy(db, { facility, patientName: 'Seed', studyDescription: 'Seed' });
  }
  const ids = sql.raw(`array[${facilities.map((facility) => `'${facility.id}'`).join(',')}]::uuid[]`);
  await db.execute(sql`insert into studies (organisation_id, facility_id, patient_id, accession_number,
      patient_name, patient_identifier, study_description, modality, modality_group, status, priority_tag,
      created_at, updated_at, study_datetime)
    select ${first.organisationId}::uuid, f.id, (select id from patients where facility_id = f.id limit 1),
      ${columns.accession}, ${columns.patientName}, ${columns.patientIdentifier}, ${columns.description},
      ${columns.modality}, (${columns.modalityGroup})::modality_group, (${columns.status})::study_status,
      (${columns.priorityTag ?? sql`null`})::priority_tag, ${columns.arrival}, ${columns.arrival},
      ${columns.studyDatetime ?? columns.arrival}
    from generate_series(1, ${count}::int) g
      cross join lateral (select (${ids})[g % ${facilities.length}::int + 1] as id) f`);
}

/** Rows by patient name ascending, ties by id: the worklist's order for names of ASCII letters, digits and spaces. */
export function sortedByName<T extends { id: string; patient_name: string }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) =>
    a.patient_name === b.patient_name ? (a.id < b.id ? -1 : 1) : a.patient_name < b.patient_name ? -1 : 1,
  );
}

/** The worklist's sort columns a test walks, as query parameter and column: name, patient id, study date. */
export const SORTED_COLUMNS = [
  ['patient_name', 'patient_name'],
  ['patient_id', 'patient_identifier'],
  ['datetime', 'study_datetime'],
] as const;

/**
 * The oracle of a sorted search: ORDER BY's ids of the studies `where` keeps (not deleted) holding
 * `text` (folded), by `column` in `direction`, ties by id.
 */
export async function idsInOrder(
  db: TDbOrTx,
  where: SQL,
  text: string,
  column: string,
  direction: 'asc' | 'desc',
): Promise<string[]> {
  const order = sql.raw(`order by "${column}" ${direction}, id ${direction}`);
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from studies where ${where} and status <> 'DELETED'
      and strpos(search_text, lower(ris_unaccent(${text}))) > 0 ${order}`,
  );
  return rows.map((row) => row.id);
}
