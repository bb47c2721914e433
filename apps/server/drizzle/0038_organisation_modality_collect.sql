-- An admin's modality filter on a page sorted by another column than arrival. The organisation's sort
-- indexes (0034, 0036) hold a modality group's studies together wherever the sort key follows the
-- modality (a study description, the modality itself), so walking one from its start for an MRI page
-- met every X-ray and ultrasound study first (490,000 entries), and collecting the matches then read
-- each one's row for its sort key (an admin's month of MRI by study description, 49,000 matches:
-- 150-370 ms in all). This index holds an organisation's studies by modality group and arrival, with
-- the filters and every sort key trailing: the matches are collected from the index alone.
CREATE INDEX "studies_organisation_modality_created_idx" ON "studies" USING btree ("organisation_id","modality_group","created_at","id","facility_id","status","priority_tag","last_assigned_user_id","updated_at","modality","patient_identifier","study_description","series_count","patient_name","study_datetime");