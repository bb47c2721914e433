DROP INDEX "studies_organisation_created_idx";--> statement-breakpoint
DROP INDEX "studies_facility_status_created_idx";--> statement-breakpoint
DROP INDEX "studies_facility_modality_created_idx";--> statement-breakpoint
DROP INDEX "studies_assigned_user_created_idx";--> statement-breakpoint
CREATE INDEX "studies_organisation_created_idx" ON "studies" USING btree ("organisation_id","created_at","id","status");--> statement-breakpoint
CREATE INDEX "studies_facility_status_created_idx" ON "studies" USING btree ("facility_id","status","created_at","organisation_id");--> statement-breakpoint
CREATE INDEX "studies_facility_modality_created_idx" ON "studies" USING btree ("facility_id","modality_group","created_at","status","organisation_id");--> statement-breakpoint
CREATE INDEX "studies_assigned_user_created_idx" ON "studies" USING btree ("last_assigned_user_id","created_at","facility_id","status","organisation_id") WHERE "studies"."last_assigned_user_id" is not null;