-- A facility-scoped page with few matches collects their ids and sort keys from these indexes
-- alone (they lacked id: 1,255 heap pages read for a radiologist's 1,528 CT and MRI studies of a week).
DROP INDEX "studies_facility_status_created_idx";--> statement-breakpoint
DROP INDEX "studies_facility_modality_created_idx";--> statement-breakpoint
CREATE INDEX "studies_facility_status_created_idx" ON "studies" USING btree ("facility_id","status","created_at","organisation_id","id");--> statement-breakpoint
CREATE INDEX "studies_facility_modality_created_idx" ON "studies" USING btree ("facility_id","modality_group","created_at","status","organisation_id","id");