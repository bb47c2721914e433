CREATE TABLE "study_assignee_count_deltas" (
	"organisation_id" uuid NOT NULL,
	"facility_id" uuid NOT NULL,
	"last_assigned_user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"status" "study_status" NOT NULL,
	"modality_group" "modality_group",
	"priority_tag" "priority_tag",
	"study_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_assignee_day_counts" (
	"organisation_id" uuid NOT NULL,
	"facility_id" uuid NOT NULL,
	"last_assigned_user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"status" "study_status" NOT NULL,
	"modality_group" "modality_group",
	"priority_tag" "priority_tag",
	"study_count" integer NOT NULL,
	CONSTRAINT "study_assignee_day_counts_key" UNIQUE NULLS NOT DISTINCT("last_assigned_user_id","day","facility_id","status","modality_group","priority_tag")
);
--> statement-breakpoint
CREATE INDEX "study_assignee_count_deltas_user_day_idx" ON "study_assignee_count_deltas" USING btree ("last_assigned_user_id","day");--> statement-breakpoint
-- The assignee rollup (a reporter's own list, a by_user_ids filter), kept exact at every commit as
-- the other two (migration 0014): the same triggers append to study_assignee_count_deltas what each
-- statement changed per (assignee, facility, day, status, modality group, priority tag), for assigned
-- studies only; worklist-rollup-compaction.ts folds them in. Its own deltas table: an assignment
-- (frequent) appends there alone, study_count_deltas stays as it was.
-- The lock first: it waits for every transaction writing studies to end (their statements ran the
-- function below without the assignee part) and keeps new writers waiting until the function and
-- the counts below are committed together, so every assigned study is counted exactly once.
LOCK TABLE studies IN SHARE MODE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ris_study_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO public.study_count_deltas
    SELECT organisation_id, facility_id, public.ris_count_day(created_at), status, modality_group, priority_tag, count(*)
      FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6;
    INSERT INTO public.study_assignee_count_deltas
    SELECT organisation_id, facility_id, last_assigned_user_id, public.ris_count_day(created_at), status, modality_group,
        priority_tag, count(*)
      FROM new_rows WHERE last_assigned_user_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO public.study_count_deltas
    SELECT organisation_id, facility_id, public.ris_count_day(created_at), status, modality_group, priority_tag, -count(*)
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6;
    INSERT INTO public.study_assignee_count_deltas
    SELECT organisation_id, facility_id, last_assigned_user_id, public.ris_count_day(created_at), status, modality_group,
        priority_tag, -count(*)
      FROM old_rows WHERE last_assigned_user_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7;
  ELSE
    -- Only the rows whose counted columns changed (most updates touch none of them), read once for
    -- both: a key that stays in one rollup (an assignment keeps the facility's) sums to 0 there.
    WITH changed AS (
      SELECT x.organisation_id, x.facility_id, x.last_assigned_user_id, public.ris_count_day(x.created_at) AS day,
          x.status, x.modality_group, x.priority_tag, x.n
        FROM new_rows nr JOIN old_rows od ON od.id = nr.id
        CROSS JOIN LATERAL (VALUES
          (nr.organisation_id, nr.facility_id, nr.last_assigned_user_id, nr.created_at, nr.status, nr.modality_group,
            nr.priority_tag, 1),
          (od.organisation_id, od.facility_id, od.last_assigned_user_id, od.created_at, od.status, od.modality_group,
            od.priority_tag, -1)
        ) AS x(organisation_id, facility_id, last_assigned_user_id, created_at, status, modality_group, priority_tag, n)
        WHERE (nr.organisation_id, nr.facility_id, nr.last_assigned_user_id, public.ris_count_day(nr.created_at), nr.status,
            nr.modality_group, nr.priority_tag)
          IS DISTINCT FROM
          (od.organisation_id, od.facility_id, od.last_assigned_user_id, public.ris_count_day(od.created_at), od.status,
            od.modality_group, od.priority_tag)
    ), facility_deltas AS (
      INSERT INTO public.study_count_deltas
      SELECT organisation_id, facility_id, day, status, modality_group, priority_tag, sum(n)
        FROM changed GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(n) <> 0
    )
    INSERT INTO public.study_assignee_count_deltas
    SELECT organisation_id, facility_id, last_assigned_user_id, day, status, modality_group, priority_tag, sum(n)
      FROM changed WHERE last_assigned_user_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(n) <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The assigned studies that exist already, in key order (one assignee's rows lie together).
INSERT INTO study_assignee_day_counts
  (organisation_id, facility_id, last_assigned_user_id, day, status, modality_group, priority_tag, study_count)
SELECT organisation_id, facility_id, last_assigned_user_id, ris_count_day(created_at), status, modality_group,
    priority_tag, count(*)::integer
  FROM studies WHERE last_assigned_user_id IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 3, 4, 2, 5, 6, 7;
