-- Report finder and home at a million reports (issue 16): each report carries copies of its study's
-- arrival time, facility, priority tag and deletion, kept by triggers, so the finder walks an
-- organisation's (or a facility's) reports newest first by arrival and stops after a page and a
-- capped count, and the home's turnaround reads a period's finals from one index without joining
-- every study. The copies are the database's: a BEFORE trigger sets them on every insert (whatever
-- the statement gave) and when a report's study_id changes; an AFTER trigger on studies updates
-- them when the study's arrival, facility, priority tag or deletion changes (rare: a priority edit,
-- a deletion or its undoing), inside the same transaction.
-- The backfill rewrites every report once (its search_vector is recomputed with it): on a large
-- archive this migration takes minutes (about 3 minutes per million reports on 2 cores).
DROP INDEX "reports_organisation_finalized_idx";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "study_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "facility_id" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "priority_tag" "priority_tag";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "study_deleted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "reports" r SET "study_created_at" = s."created_at", "facility_id" = s."facility_id",
  "priority_tag" = s."priority_tag", "study_deleted" = (s."status" = 'DELETED')
  FROM "studies" s WHERE s."id" = r."study_id";--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "study_created_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "facility_id" SET NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION ris_report_copy_study() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT s.created_at, s.facility_id, s.priority_tag, s.status = 'DELETED'
    INTO NEW.study_created_at, NEW.facility_id, NEW.priority_tag, NEW.study_deleted
    FROM public.studies s WHERE s.id = NEW.study_id;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER reports_copy_study BEFORE INSERT OR UPDATE OF study_id, study_created_at, facility_id, priority_tag, study_deleted
  ON reports FOR EACH ROW EXECUTE FUNCTION ris_report_copy_study();--> statement-breakpoint
CREATE OR REPLACE FUNCTION ris_study_copy_to_report() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE public.reports SET study_created_at = NEW.created_at, facility_id = NEW.facility_id,
    priority_tag = NEW.priority_tag, study_deleted = (NEW.status = 'DELETED')
    WHERE study_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER studies_copy_to_report AFTER UPDATE OF created_at, facility_id, priority_tag, status ON studies
  FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.facility_id IS DISTINCT FROM NEW.facility_id
    OR OLD.priority_tag IS DISTINCT FROM NEW.priority_tag OR (OLD.status = 'DELETED') IS DISTINCT FROM (NEW.status = 'DELETED'))
  EXECUTE FUNCTION ris_study_copy_to_report();--> statement-breakpoint
CREATE INDEX "reports_organisation_arrival_idx" ON "reports" USING btree ("organisation_id","study_created_at","id");--> statement-breakpoint
CREATE INDEX "reports_facility_arrival_idx" ON "reports" USING btree ("facility_id","study_created_at","id");--> statement-breakpoint
CREATE INDEX "reports_organisation_finalized_idx" ON "reports" USING btree ("organisation_id","finalized_at","study_created_at","priority_tag","facility_id","study_deleted","status","study_id") WHERE "reports"."finalized_at" is not null;
