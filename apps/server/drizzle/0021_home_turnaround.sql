-- Home dashboards and turnaround targets (issue 16): organisations' targets (null = defaults), the
-- study's breach-notified time (the breach job notifies once), partial indexes over the open studies
-- and over the finals by organisation and by signer, so the home summary reads few rows at 1M studies.
ALTER TABLE "organisations" ADD COLUMN "turnaround_targets" jsonb;--> statement-breakpoint
ALTER TABLE "studies" ADD COLUMN "turnaround_breach_notified_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "reports_organisation_finalized_idx" ON "reports" USING btree ("organisation_id","finalized_at","study_id") WHERE "reports"."finalized_at" is not null;--> statement-breakpoint
CREATE INDEX "reports_finalized_by_idx" ON "reports" USING btree ("finalized_by","finalized_at","study_id") WHERE "reports"."finalized_at" is not null;--> statement-breakpoint
CREATE INDEX "studies_open_organisation_created_idx" ON "studies" USING btree ("organisation_id","created_at","id","facility_id","status","priority_tag","last_assigned_user_id") WHERE "studies"."status" not in ('FINAL', 'DELETED');--> statement-breakpoint
CREATE INDEX "studies_turnaround_unnotified_idx" ON "studies" USING btree ("organisation_id","created_at") WHERE "studies"."turnaround_breach_notified_at" is null and "studies"."status" not in ('FINAL', 'DELETED');