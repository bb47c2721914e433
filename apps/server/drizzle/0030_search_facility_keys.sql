-- Worklist search over all dates (or more weeks than studies_search_week_idx serves) by a caller who
-- sees a few facilities: studies_search_trgm_idx finds the text's studies in every facility of the
-- organisation, and a radiologist of 5 facilities out of 100 had 12,000 of them read to find the few
-- hundred of theirs (or none: 28 ms for nothing). This index keys the same trigrams by the study's
-- facility ("<facility tag>:<trigram>"), so such a search reads only the rows of its facilities (one
-- index scan per facility, ORed). The tag is the facility id's last 8 hex digits: two facilities
-- sharing one only make a search read the other's rows too, which the facility condition then drops.
-- As in 0005: ASCII trigrams only, the substring test on search_text decides every match, and every
-- function is qualified by schema (index expressions run under a restricted search_path).
CREATE OR REPLACE FUNCTION ris_search_facility_tag(facility_id uuid) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT right(facility_id::text, 8) $$;
--> statement-breakpoint
-- A study's keys: search_text is already lower-cased and unaccented.
CREATE OR REPLACE FUNCTION ris_search_facility_keys(search_text text, facility_id uuid) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array(SELECT public.ris_search_facility_tag(facility_id) || ':' || t
    FROM unnest(public.show_trgm(search_text)) AS t
    WHERE t ~ '^[abcdefghijklmnopqrstuvwxyz0123456789]{3}$') $$;
--> statement-breakpoint
-- A searched text's keys in one facility, folded as search_text is, with the trigrams that occur in it
-- literally (see ris_search_query_keys in 0005 for why).
CREATE OR REPLACE FUNCTION ris_search_facility_query_keys(term text, facility_id uuid) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array(SELECT public.ris_search_facility_tag(facility_id) || ':' || t
    FROM (SELECT lower(public.ris_unaccent(term)) AS text) AS folded, unnest(public.show_trgm(folded.text)) AS t
    WHERE t ~ '^[abcdefghijklmnopqrstuvwxyz0123456789]{3}$' AND strpos(folded.text, t) > 0) $$;
--> statement-breakpoint
CREATE INDEX "studies_search_facility_idx" ON "studies" USING gin (ris_search_facility_keys("search_text", "facility_id")) WITH (fastupdate=off);
