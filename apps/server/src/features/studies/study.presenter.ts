// One worklist item (TWorklistItem): the columns it is read from and how they become the wire shape,
// in one module. It is presented two ways, which must agree field for field:
//  - from Drizzle rows (worklistItemColumns → presentWorklistItem): a command's result, a realtime
//    event, a single item;
//  - by PostgreSQL itself (WORKLIST_ITEM_JSON_COLUMNS, turned into JSON by row_to_json): the list page,
//    so Node neither maps nor validates its rows (features/worklist/list/worklist-list.queries.ts).
// Both are typed against TWorklistItem's keys, so a field added to the domain schema fails to compile
// until it is added here. The queries that read them live in study.queries.ts.
import type { TStudyStatus, TWorklistItem, TWorklistItemFacts } from '@ris/domain';
import { sql } from 'drizzle-orm';
import type { TPrincipal } from '../../auth/principal.ts';
import { facilities, studies, users } from '../../db/schema/index.ts';
import { studyAbilities } from './study-abilities.ts';

/** The columns a worklist item needs: the study plus two small joins (facility name, assignee name). */
export const worklistItemColumns = {
  study: studies,
  facilityName: facilities.name,
  assigneeName: users.displayName,
};

export type TWorklistRow = {
  study: typeof studies.$inferSelect;
  facilityName: string;
  assigneeName: string | null;
};

export type TPatientDocumentWire = TWorklistItem['patient_documents'][number];

/** A patient document's columns (patient_documents joined to its stored file). */
export type TPatientDocumentRow = {
  id: string;
  filename: string;
  mediaType: string;
  sizeBytes: number;
  createdAt: Date;
};

export function presentPatientDocument(row: TPatientDocumentRow): TPatientDocumentWire {
  return {
    id: row.id,
    filename: row.filename,
    media_type: row.mediaType,
    size_bytes: row.sizeBytes,
    created_at: row.createdAt.toISOString(),
  };
}

/** The item's facts (what realtime messages carry: one message for every listener). */
export function presentWorklistItem(
  row: TWorklistRow,
  documents: TPatientDocumentWire[],
): TWorklistItemFacts {
  const s = row.study;
  return {
    id: s.id,
    facility_fk: s.facilityId,
    facility: row.facilityName,
    study_uid: s.studyUid,
    accession_number: s.accessionNumber,
    patient_name: s.patientName,
    patient_id: s.patientIdentifier,
    patient_fk: s.patientId,
    patient_sex: s.patientSex,
    patient_birth_date: s.patientBirthDate,
    modality: s.modality,
    modality_group: s.modalityGroup,
    study: s.studyDescription,
    body_part: s.bodyPart,
    datetime: s.studyDatetime?.toISOString() ?? null,
    series_count: s.seriesCount,
    instance_count: s.instanceCount,
    images_deleted_at: s.archiveDeletedAt?.toISOString() ?? null,
    status: s.status,
    priority_tag: s.priorityTag,
    last_assigned_user_fk: s.lastAssignedUserId,
    last_assigned_user_display_name: row.assigneeName,
    referring_physician_fk: s.referringPhysicianId,
    referring_physician: s.referringPhysicianName,
    clinical_history: s.clinicalHistory,
    collaboration_enabled: s.collaborationEnabled,
    patient_documents: documents,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}

/** The item as one caller receives it: its facts and what they may do with it (study-abilities.ts). */
export function withAbilities(item: TWorklistItemFacts, principal: TPrincipal): TWorklistItem {
  const facts = {
    status: item.status,
    lastAssignedUserId: item.last_assigned_user_fk,
    collaborationEnabled: item.collaboration_enabled,
  };
  return { ...item, abilities: studyAbilities(principal, facts) };
}

/** A timestamptz as Date.toISOString() writes it (UTC, milliseconds truncated as the drivers do). */
const isoText = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Each field of a presented patient document as SQL over `pd` (patient_documents) and `sf` (stored_files). */
const PATIENT_DOCUMENT_SQL = {
  id: 'pd.id',
  filename: 'pd.filename',
  media_type: 'sf.media_type',
  size_bytes: 'sf.size_bytes',
  created_at: isoText('pd.created_at'),
} satisfies Record<keyof TPatientDocumentWire, string>;

/** Each field of TWorklistItem as SQL over the page row `s`, its facility `f`, assignee `u` and documents `d`. */
const WORKLIST_ITEM_SQL = {
  id: 's.id',
  facility_fk: 's.facility_id',
  facility: 'f.name',
  study_uid: 's.study_uid',
  accession_number: 's.accession_number',
  patient_name: 's.patient_name',
  patient_id: 's.patient_identifier',
  patient_fk: 's.patient_id',
  patient_sex: 's.patient_sex',
  patient_birth_date: 's.patient_birth_date',
  modality: 's.modality',
  modality_group: 's.modality_group',
  study: 's.study_description',
  body_part: 's.body_part',
  datetime: isoText('s.study_datetime'),
  series_count: 's.series_count',
  instance_count: 's.instance_count',
  images_deleted_at: isoText('s.archive_deleted_at'),
  status: 's.status',
  priority_tag: 's.priority_tag',
  last_assigned_user_fk: 's.last_assigned_user_id',
  last_assigned_user_display_name: 'u.display_name',
  referring_physician_fk: 's.referring_physician_id',
  referring_physician: 's.referring_physician_name',
  clinical_history: 's.clinical_history',
  collaboration_enabled: 's.collaboration_enabled',
  patient_documents: `coalesce(d.documents, '[]'::json)`,
  created_at: isoText('s.created_at'),
  updated_at: isoText('s.updated_at'),
  // A placeholder with the facts the abilities depend on, "STATUS|assignee id|true": the page is
  // cached for everyone who sees it, so each caller's abilities are put in by withListAbilities.
  abilities: `s.status::text || '|' || coalesce(s.last_assigned_user_id::text, '') || '|' || s.collaboration_enabled::text`,
} satisfies Record<keyof TWorklistItem, string>;

const ABILITIES_PLACEHOLDER = /"abilities":"([A-Z_]+)\|([0-9a-f-]*)\|(true|false)"/g;

/**
 * A list page's JSON text (built by PostgreSQL, cached for everyone) with the caller's abilities in
 * place of each item's placeholder: one pass over the text, one policy answer per distinct facts.
 */
export function withListAbilities(body: string, principal: TPrincipal): string {
  const known = new Map<string, string>();
  return body.replace(
    ABILITIES_PLACEHOLDER,
    (placeholder: string, status: string, assignee: string, collab: string) => {
      let json = known.get(placeholder);
      if (json === undefined) {
        const facts = {
          status: status as TStudyStatus,
          lastAssignedUserId: assignee === '' ? null : assignee,
          collaborationEnabled: collab === 'true',
        };
        json = `"abilities":${JSON.stringify(studyAbilities(principal, facts))}`;
        known.set(placeholder, json);
      }
      return json;
    },
  );
}

const selectList = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, expression]) => `${expression} as ${name}`)
    .join(', ');

/**
 * One worklist item's columns, named and ordered as presentWorklistItem writes them, for a select
 * over the page row `s` joined to `f`, `u` and the lateral `d` (PATIENT_DOCUMENTS_JSON): the row is
 * turned into JSON by row_to_json (a third cheaper in PostgreSQL than json_build_object, and without
 * its blanks).
 */
export const WORKLIST_ITEM_JSON_COLUMNS = sql.raw(selectList(WORKLIST_ITEM_SQL));

const documentObject = Object.entries(PATIENT_DOCUMENT_SQL)
  .map(([name, expression]) => `'${name}', ${expression}`)
  .join(', ');

/** The patient documents of the page row `s` as a JSON array `documents` (null when none), oldest first. */
export const PATIENT_DOCUMENTS_JSON = sql.raw(`select json_agg(json_build_object(${documentObject})
      order by pd.created_at) as documents
    from patient_documents pd join stored_files sf on sf.id = pd.file_id where pd.study_id = s.id`);
