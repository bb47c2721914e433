-- The priority_tags filter (issue 15): a tagged page's ids in created_at, id order, by organisation (an
-- admin) or by facility (staff), status and modality checked on the index. Partial: ~5 % of studies
-- carry a tag.
CREATE INDEX "studies_organisation_priority_created_idx" ON "studies" USING btree ("organisation_id","priority_tag","created_at","id","status","modality_group") WHERE "studies"."priority_tag" is not null;--> statement-breakpoint
CREATE INDEX "studies_facility_priority_created_idx" ON "studies" USING btree ("facility_id","priority_tag","created_at","id","status") WHERE "studies"."priority_tag" is not null;