-- An admin's range of arrival sorted by study date (a month, oldest first). The study date sort index
-- (0036) read from its start meets first every study that arrived before the range, so such a page
-- was collected: 330,000 rows read for their study date and sorted, 150 ms. This index keys the same
-- entries by the UTC day of arrival: each day of the range is read in study date order up to the
-- page's end and the days merged (arrivalDayWalkSql), about a page's worth of entries a day. The day
-- only partitions; the range's edges are still checked on created_at.
CREATE OR REPLACE FUNCTION ris_arrival_day(at timestamptz) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT floor(extract(epoch FROM at) / 86400)::integer $$;
--> statement-breakpoint
CREATE INDEX "studies_organisation_arrival_day_study_datetime_idx" ON "studies" USING btree ("organisation_id",ris_arrival_day("created_at"),"study_datetime","id","created_at","facility_id","status","modality_group","priority_tag","last_assigned_user_id");
