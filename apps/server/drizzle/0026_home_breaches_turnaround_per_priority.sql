-- The admin's home at 1M studies (issue 16): the breaches read the earliest arrivals of each priority
-- tag among the open studies (due = arrival + the tag's target), and the turnaround groups the
-- week's finals per tag without sorting them. IF NOT EXISTS: the bench database had them built
-- concurrently while they were measured.
CREATE INDEX IF NOT EXISTS "reports_organisation_priority_finalized_idx" ON "reports" USING btree ("organisation_id","priority_tag","finalized_at","study_created_at","facility_id") WHERE "reports"."finalized_at" is not null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "studies_open_organisation_priority_created_idx" ON "studies" USING btree ("organisation_id","priority_tag","created_at","id","facility_id") WHERE "studies"."status" not in ('FINAL', 'DELETED');