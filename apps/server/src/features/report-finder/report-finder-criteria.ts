// The report finder's filters, checked against the caller's scope: the worklist's own resolution
// (dates, presets, time zone, facilities, modality, priority, patient/study text, a reporter's own
// studies) plus the report's filters and the words searched, resolved to a tsquery.
import type { TReportSearchQuery, TReportStatus, TStudyStatus } from '@ris/domain';
import { sql } from 'drizzle-orm';
import type { TScope } from '../../access/scope.ts';
import type { TDbOrTx } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import { resolveWorklistCriteria, type TWorklistCriteria } from '../worklist/list/worklist-criteria.ts';

/** The text search configurations of migration 0022 (both fold accents). */
export type TSearchConfig = 'public.ris_english' | 'public.ris_simple';

/** The words searched as a tsquery (its text form) and the configuration it was parsed with. */
export type TTextQuery = { tsquery: string; config: TSearchConfig };

export type TReportFinderCriteria = {
  /** The worklist's criteria: the visibility of studies and the filters they share. */
  worklist: TWorklistCriteria;
  /** The study statuses whose reports the caller finds. */
  studyStatuses: readonly TStudyStatus[];
  reportStatuses: TReportStatus[];
  radiologistIds: string[];
  tagIds: string[];
  referringPhysicianIds: string[];
  patientId: string | null;
  excludeStudyId: string | null;
  /** Null: no words to search (no q, or nothing searchable in it): every report under the filters. */
  text: TTextQuery | null;
  /** By relevance only when there are words to rank by; else newest first. */
  sort: 'relevance' | 'date';
  limit: number;
  offset: number;
};

/** C0 and C1 control characters: typed by mistake or pasted, never words; read as spaces. */
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * q as a tsquery in web-search syntax (words, "phrase", -word, OR), which never fails on syntax
 * (unbalanced quotes, a lone "-" are read as well as they can be). English stems first; a q of
 * English stop words only ("the and") has no English lexeme and is searched as the words written
 * (ris_simple, weight B of the vector); a q with no word at all ("-", punctuation) searches nothing:
 * null, every report under the filters, as without q.
 */
export async function resolveTextQuery(db: TDbOrTx, q: string | undefined): Promise<TTextQuery | null> {
  const text = (q ?? '').replace(CONTROL_CHARACTERS, ' ').trim();
  if (text === '') return null;
  const [row] = await queryRows<{
    english: string;
    simple: string;
    english_nodes: number;
    simple_nodes: number;
  }>(
    db,
    sql`select e::text as english, numnode(e) as english_nodes, s::text as simple, numnode(s) as simple_nodes
      from websearch_to_tsquery('public.ris_english', ${text}) e, websearch_to_tsquery('public.ris_simple', ${text}) s`,
  );
  if (!row) return null;
  if (Number(row.english_nodes) > 0) return { tsquery: row.english, config: 'public.ris_english' };
  if (Number(row.simple_nodes) > 0) return { tsquery: row.simple, config: 'public.ris_simple' };
  return null;
}

/**
 * The study statuses whose reports a caller finds: a referring physician reads a report only once
 * it is FINAL (access/studies-scope.ts mayReadReportOf, said here as a filter); everyone else the
 * statuses the worklist counts for them (deleted studies for admins only).
 */
function findableStudyStatuses(worklist: TWorklistCriteria): readonly TStudyStatus[] {
  return worklist.scope.principal.role === 'REFERRING_PHYSICIAN' ? ['FINAL'] : worklist.countedStatuses;
}

/** Checks the filters against the caller's scope and resolves them; throws 4xx naming the field. */
export async function resolveReportFinderCriteria(
  db: TDbOrTx,
  scope: TScope,
  query: TReportSearchQuery,
  now: Date,
): Promise<TReportFinderCriteria> {
  const worklist = await resolveWorklistCriteria(
    db,
    scope,
    {
      by_user_ids: [],
      statuses: [],
      modalities: query.modalities,
      priority_tags: query.priority_tags,
      facility_ids: query.facility_ids,
      date_range_type: query.date_range_type,
      start_date: query.start_date,
      end_date: query.end_date,
      time_zone: query.time_zone,
      search: query.search,
    },
    now,
    // The finder's statements say the facilities and dates on the report: no keyed search index.
    { keyedSearch: false },
  );
  const text = await resolveTextQuery(db, query.q);
  return {
    worklist,
    studyStatuses: findableStudyStatuses(worklist),
    reportStatuses: [...new Set(query.report_statuses)],
    radiologistIds: [...new Set(query.radiologist_ids)],
    tagIds: [...new Set(query.tag_ids)],
    referringPhysicianIds: [...new Set(query.referring_physician_ids)],
    patientId: query.patient_id ?? null,
    excludeStudyId: query.exclude_study_id ?? null,
    text,
    sort: text && query.sort_by === 'relevance' ? 'relevance' : 'date',
    limit: query.limit,
    offset: query.offset,
  };
}
