-- An admin's page filtered by priority tag reads its ids from the organisation index alone (status,
-- modality group and priority checked on the entries). The rollup tables are analysed once filled, so
-- the planner knows their size before autovacuum first gets to them.
DROP INDEX "studies_organisation_created_idx";--> statement-breakpoint
CREATE INDEX "studies_organisation_created_idx" ON "studies" USING btree ("organisation_id","created_at","id","status","modality_group","priority_tag");--> statement-breakpoint
ANALYZE study_facility_day_counts;
--> statement-breakpoint
ANALYZE study_organisation_day_counts;
