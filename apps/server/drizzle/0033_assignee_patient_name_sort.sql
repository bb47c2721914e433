-- Worklist sorted by patient name within an assignee (a reporter's own list, a by_user_ids filter):
-- the reporter's own list over all dates sorted its 28,000 studies (22 ms). The assignee's name
-- order, with the filters checked on the index, as 0032 for the organisation and each facility.
CREATE INDEX "studies_assigned_user_patient_name_idx" ON "studies" USING btree ("last_assigned_user_id","patient_name","id","created_at","facility_id","status","organisation_id","modality_group","priority_tag") WHERE "studies"."last_assigned_user_id" is not null;