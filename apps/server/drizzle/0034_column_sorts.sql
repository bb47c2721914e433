-- Worklist sorted by another column header (last update, modality, patient id, study, status,
-- priority, series count): every match was collected and sorted, 350-530 ms for an admin over all
-- dates, 180-420 ms for staff. One index per column within the organisation, with every filter a
-- page without search checks (arrival, facility, status, modality group, priority, assignee), so a
-- page is the first entries of the column's order (worklist-page-walk.ts, prefixWalkSql).
CREATE INDEX "studies_organisation_updated_at_sort_idx" ON "studies" USING btree ("organisation_id","updated_at","id","created_at","facility_id","status","modality_group","priority_tag","last_assigned_user_id");--> statement-breakpoint
CREATE INDEX "studies_organisation_modality_sort_idx" ON "studies" USING btree ("organisation_id","modality","id","created_at","facility_id","status","modality_group","priority_tag","last_assigned_user_id");--> statement-breakpoint
CREATE INDEX "studies_organisation_patient_identifier_sort_idx" ON "studies" USING btree ("organisation_id","patient_identifier","id","created_at","facility_id","status","modality_group","priority_tag","last_assigned_user_id");--> statement-breakpoint
CREATE INDEX "studies_organisation_study_description_sort_idx" ON "studies" USING btree ("organisation_id","study_description","id","created_at","facility_id","status","modality_group","priority_tag","last_assigned_user_id");--> statement-breakpoint
CREATE INDEX "studies_organisation_status_sort_idx" ON "studies" USING btree ("organisation_id","status","id","created_at","facility_id","modality_group","priority_tag","last_assigned_user_id");--> statement-breakpoint
CREATE INDEX "studies_organisation_priority_tag_sort_idx" ON "studies" USING btree ("organisation_id","priority_tag","id","created_at","facility_id","status","modality_group","last_assigned_user_id");--> statement-breakpoint
CREATE INDEX "studies_organisation_series_count_sort_idx" ON "studies" USING btree ("organisation_id","series_count","id","created_at","facility_id","status","modality_group","priority_tag","last_assigned_user_id");