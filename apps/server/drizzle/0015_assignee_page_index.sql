-- A reporter's (or any assignee's) page: its ids in created_at, id order from this index alone, the
-- filters (status, facility, modality) checked on the index entries, not on the table.
DROP INDEX "studies_assigned_user_created_idx";--> statement-breakpoint
CREATE INDEX "studies_assigned_user_created_idx" ON "studies" USING btree ("last_assigned_user_id","created_at","id","facility_id","status","organisation_id","modality_group") WHERE "studies"."last_assigned_user_id" is not null;