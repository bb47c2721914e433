-- The admin's home at 1M studies (issue 16): the waiting counts read the open studies per facility
-- and status in that order from a small deduplicated index. IF NOT EXISTS: the bench database had
-- it built concurrently while it was measured.
CREATE INDEX IF NOT EXISTS "studies_open_organisation_facility_status_idx" ON "studies" USING btree ("organisation_id","facility_id","status") WHERE "studies"."status" not in ('FINAL', 'DELETED');