-- Worklist sorted by patient name (a column header) over more matches than are collected and sorted
-- (worklist-list.queries.ts, COLLECT_AT_MOST): an admin's month of 326,000 took 115-125 ms, all
-- dates 250 ms, a radiologist's 5 facilities over all dates 90 ms. These indexes give the name
-- order within the organisation and within each facility, with arrival, status, modality group and
-- priority checked on the index, so a page is walked in name order until it is full.
CREATE INDEX "studies_organisation_patient_name_idx" ON "studies" USING btree ("organisation_id","patient_name","id","created_at","status","modality_group","priority_tag");--> statement-breakpoint
CREATE INDEX "studies_facility_patient_name_idx" ON "studies" USING btree ("facility_id","patient_name","id","created_at","status","modality_group","priority_tag","organisation_id");