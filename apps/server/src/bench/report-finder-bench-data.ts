// Reports for the report finder's benchmark: one report per study of the worklist benchmark's data
// (worklist-bench-data.ts: 100 facilities, 90 days), each 6-13 sentences of radiology findings drawn
// from word lists in SQL, so the words' frequencies vary the way real reports' do (normal findings
// common, "pleural effusion" in roughly one report in five, "renal calculus" in one in twenty). The search index
// is dropped for the load and rebuilt after it.
import { sql } from 'drizzle-orm';
import type { TDb } from '../db/client.ts';

const quoted = (values: readonly string[]) =>
  sql.raw(`array[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(',')}]`);

const NORMAL = [
  'The liver is normal in size and echotexture',
  'No focal lesion is seen in the liver',
  'The gallbladder is well distended with no calculi',
  'The common bile duct is not dilated',
  'The pancreas and spleen are unremarkable',
  'Both kidneys are normal in size with preserved corticomedullary differentiation',
  'The urinary bladder is normal',
  'The lungs are clear',
  'The cardiac silhouette is within normal limits',
  'The mediastinum is central',
  'No acute intracranial haemorrhage',
  'The ventricles and sulci are normal for age',
  'The grey-white matter differentiation is preserved',
  'The vertebral bodies are normal in height and alignment',
  'No significant lymphadenopathy',
  'The visualised bones are unremarkable',
  'Costophrenic angles are clear',
  'No free fluid in the abdomen',
];
const QUALIFIERS = ['Mild', 'Moderate', 'Severe', 'Small', 'Large', 'Minimal', 'Trace'];
/** Drawn with a skew (earlier entries more often): "pleural effusion" ~6 % of findings, the last ~1.4 %. */
const FINDINGS = [
  'degenerative changes of the spine',
  'atelectasis at the lung bases',
  'hepatomegaly with fatty infiltration',
  'disc bulge at L4-L5 indenting the thecal sac',
  'pleural effusion',
  'consolidation in the lower lobe',
  'cortical cyst in the kidney',
  'ground-glass opacities',
  'cardiomegaly',
  'periventricular white matter ischaemic changes',
  'fracture of the distal radius',
  'splenomegaly',
  'ascites',
  'hydronephrosis',
  'thickening of the bowel wall',
  'oedème of the soft tissues',
  'pericardial effusion',
  'renal calculus in the lower pole',
];
const SIDES = ['left', 'right', 'bilateral', 'basal'];
const IMPRESSIONS = [
  'Clinical correlation is advised',
  'Follow-up imaging is recommended in six weeks',
  'Comparison with prior studies is suggested',
  'No acute abnormality',
  'Findings discussed with the referring physician',
];

/**
 * One report per study: FINAL studies' reports COMPLETED (signed by the assignee, a PDF-less final),
 * DRAFTED/IN_REVIEW ones DRAFTED, the rest CREATED; the text is written in every case (as dictated).
 */
export async function generateReports(db: TDb, organisationId: string): Promise<void> {
  await db.execute(sql`drop index if exists reports_search_vector_idx`);
  await db.execute(sql`
    insert into reports (study_id, organisation_id, status, content, content_text, finalized_by, finalized_at,
      created_at, updated_at)
    select s.id, s.organisation_id,
      (case when s.status = 'FINAL' then 'COMPLETED' when s.status in ('DRAFTED', 'IN_REVIEW') then 'DRAFTED'
        else 'CREATED' end)::report_status,
      '<p>' || t.text || '</p>', t.text,
      case when s.status = 'FINAL' then s.last_assigned_user_id end,
      case when s.status = 'FINAL' then s.created_at + interval '3 hours' end,
      s.created_at, s.created_at + interval '3 hours'
    from studies s
    cross join lateral (
      select string_agg(
        case when random() < 0.6 then (${quoted(NORMAL)})[1 + floor(random() * ${NORMAL.length})::int]
          else (${quoted(QUALIFIERS)})[1 + floor(random() * ${QUALIFIERS.length})::int] || ' ' ||
            (${quoted(SIDES)})[1 + floor(random() * ${SIDES.length})::int] || ' ' ||
            (${quoted(FINDINGS)})[1 + floor(power(random(), 2) * ${FINDINGS.length})::int]
        end || '.', ' ') || E'\n' ||
        (${quoted(IMPRESSIONS)})[1 + floor(random() * ${IMPRESSIONS.length})::int] || '.' as text
      from generate_series(1, 6 + (hashtext(s.id::text) & 7)) k
    ) t
    where s.organisation_id = ${organisationId}
    order by s.created_at`);
  await db.execute(sql`set maintenance_work_mem = '512MB'`);
  await db.execute(
    sql`create index reports_search_vector_idx on reports using gin (search_vector) with (fastupdate = false)`,
  );
  await db.execute(sql`vacuum (analyze) reports`);
}
