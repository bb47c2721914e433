CREATE TABLE "study_count_deltas" (
	"organisation_id" uuid NOT NULL,
	"facility_id" uuid NOT NULL,
	"day" date NOT NULL,
	"status" "study_status" NOT NULL,
	"modality_group" "modality_group",
	"priority_tag" "priority_tag",
	"study_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_facility_day_counts" (
	"organisation_id" uuid NOT NULL,
	"facility_id" uuid NOT NULL,
	"day" date NOT NULL,
	"status" "study_status" NOT NULL,
	"modality_group" "modality_group",
	"priority_tag" "priority_tag",
	"study_count" integer NOT NULL,
	CONSTRAINT "study_facility_day_counts_key" UNIQUE NULLS NOT DISTINCT("facility_id","day","status","modality_group","priority_tag")
);
--> statement-breakpoint
CREATE TABLE "study_organisation_day_counts" (
	"organisation_id" uuid NOT NULL,
	"day" date NOT NULL,
	"status" "study_status" NOT NULL,
	"modality_group" "modality_group",
	"priority_tag" "priority_tag",
	"study_count" integer NOT NULL,
	CONSTRAINT "study_organisation_day_counts_key" UNIQUE NULLS NOT DISTINCT("organisation_id","day","status","modality_group","priority_tag")
);
--> statement-breakpoint
DROP INDEX "studies_organisation_created_idx";--> statement-breakpoint
DROP INDEX "studies_assigned_user_created_idx";--> statement-breakpoint
CREATE INDEX "study_count_deltas_organisation_day_idx" ON "study_count_deltas" USING btree ("organisation_id","day");--> statement-breakpoint
CREATE INDEX "studies_organisation_created_idx" ON "studies" USING btree ("organisation_id","created_at","id","status","modality_group");--> statement-breakpoint
CREATE INDEX "studies_assigned_user_created_idx" ON "studies" USING btree ("last_assigned_user_id","created_at","facility_id","status","organisation_id","modality_group") WHERE "studies"."last_assigned_user_id" is not null;--> statement-breakpoint
-- The rollups are exact at every commit: statement-level triggers on studies append what each
-- statement changed, summed per key, to study_count_deltas in the same transaction (inserts,
-- updates of any column, deletes, ON CONFLICT upserts alike). Writers only append, so they never
-- wait for each other or deadlock on a busy key (today's CT studies of an organisation); a count
-- reads the rollup plus the deltas, and a compaction (features/worklist/list/worklist-rollup-compaction.ts)
-- folds the deltas into the rollup now and then, in one statement, invisible to readers.
CREATE OR REPLACE FUNCTION ris_count_day(at timestamptz) RETURNS date
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT (at AT TIME ZONE 'UTC')::date $$;
--> statement-breakpoint
-- One function for the three triggers: each declares only the transition tables its operation has
-- (PL/pgSQL plans a statement when it first runs it, so the other branches' tables need not exist).
CREATE OR REPLACE FUNCTION ris_study_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO public.study_count_deltas
    SELECT organisation_id, facility_id, public.ris_count_day(created_at), status, modality_group, priority_tag, count(*)
      FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO public.study_count_deltas
    SELECT organisation_id, facility_id, public.ris_count_day(created_at), status, modality_group, priority_tag, -count(*)
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6;
  ELSE
    -- Only the rows whose counted columns changed (most updates touch none of them).
    INSERT INTO public.study_count_deltas
    SELECT x.organisation_id, x.facility_id, public.ris_count_day(x.created_at), x.status, x.modality_group,
        x.priority_tag, sum(x.n)
      FROM new_rows nr JOIN old_rows od ON od.id = nr.id
      CROSS JOIN LATERAL (VALUES
        (nr.organisation_id, nr.facility_id, nr.created_at, nr.status, nr.modality_group, nr.priority_tag, 1),
        (od.organisation_id, od.facility_id, od.created_at, od.status, od.modality_group, od.priority_tag, -1)
      ) AS x(organisation_id, facility_id, created_at, status, modality_group, priority_tag, n)
      WHERE (nr.organisation_id, nr.facility_id, public.ris_count_day(nr.created_at), nr.status, nr.modality_group,
          nr.priority_tag)
        IS DISTINCT FROM
        (od.organisation_id, od.facility_id, public.ris_count_day(od.created_at), od.status, od.modality_group,
          od.priority_tag)
      GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(x.n) <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER studies_counts_insert AFTER INSERT ON studies
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ris_study_counts_apply();
--> statement-breakpoint
CREATE TRIGGER studies_counts_update AFTER UPDATE ON studies
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ris_study_counts_apply();
--> statement-breakpoint
CREATE TRIGGER studies_counts_delete AFTER DELETE ON studies
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ris_study_counts_apply();
--> statement-breakpoint
-- The studies that exist already. The migrations run in one transaction: CREATE TRIGGER waited for
-- every transaction writing studies to end, and this lock keeps new writers waiting until the counts
-- below are committed with the triggers, so every study is counted exactly once.
LOCK TABLE studies IN SHARE MODE;
--> statement-breakpoint
INSERT INTO study_facility_day_counts
  (organisation_id, facility_id, day, status, modality_group, priority_tag, study_count)
SELECT organisation_id, facility_id, ris_count_day(created_at), status, modality_group, priority_tag, count(*)::integer
  FROM studies GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO study_organisation_day_counts
  (organisation_id, day, status, modality_group, priority_tag, study_count)
SELECT organisation_id, ris_count_day(created_at), status, modality_group, priority_tag, count(*)::integer
  FROM studies GROUP BY 1, 2, 3, 4, 5;
