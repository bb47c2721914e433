-- Worklist sorted by patient name or study date, as by the other column headers (0034): the
-- organisation's order of that column with every filter a page without search checks, its first
-- entries walked (prefixWalkSql). The name indexes of 0032-0033 (the organisation's, per facility,
-- per assignee) and the two study date indexes go: staff and assignees were walked one scan per
-- facility or assignee, merged, planned for every request (7 ms of planning for a radiologist's five
-- facilities, 1.5 ms to run), and PostgreSQL ANDed the facility study date index's 100,000 entries
-- into a reporter's searches (22 ms).
DROP INDEX "studies_organisation_patient_name_idx";--> statement-breakpoint
DROP INDEX "studies_facility_patient_name_idx";--> statement-breakpoint
DROP INDEX "studies_assigned_user_patient_name_idx";--> statement-breakpoint
DROP INDEX "studies_facility_study_datetime_idx";--> statement-breakpoint
DROP INDEX "studies_organisation_study_datetime_idx";--> statement-breakpoint
CREATE INDEX "studies_organisation_patient_name_sort_idx" ON "studies" USING btree ("organisation_id","patient_name","id","created_at","facility_id","status","modality_group","priority_tag","last_assigned_user_id");--> statement-breakpoint
CREATE INDEX "studies_organisation_study_datetime_sort_idx" ON "studies" USING btree ("organisation_id","study_datetime","id","created_at","facility_id","status","modality_group","priority_tag","last_assigned_user_id");