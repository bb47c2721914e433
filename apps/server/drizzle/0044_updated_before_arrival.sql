-- A page sorted by last update oldest first, with a range start and a search: the last-update sort
-- index was walked from its start, where every study last updated before the range began comes
-- first, found none of the range's, and the matches were collected (an admin's month of ultrasound
-- and nuclear medicine holding "ab": 200 ms at 1,000,000 studies). A study is last updated at or
-- after it arrives, so such a walk now starts at the range's start; the exceptions (a server whose
-- clock is behind PostgreSQL's wrote an update time before the arrival) are kept in this partial
-- index and read beside the walk (worklist-page-walk.ts). A normal study never enters it.
CREATE INDEX "studies_organisation_updated_before_arrival_idx" ON "studies" USING btree ("organisation_id","created_at","updated_at","id") WHERE "studies"."updated_at" < "studies"."created_at";