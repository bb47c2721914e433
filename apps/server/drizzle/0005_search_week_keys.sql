-- Worklist search within a date range. studies_search_trgm_idx finds every study whose text has the
-- searched trigrams, in any week: a common surname searched over the last month visited the rows of
-- all 90 days (12,500 rows for 4,200 matches in the benchmark), and over years of studies it would
-- visit years. This index keys the same trigrams by the week of created_at ("<week>:<trigram>"), so
-- a search over a range of weeks reads only the rows of those weeks (one index scan per week, ORed).
-- Only trigrams of three ASCII letters or digits are kept (show_trgm pads word edges with spaces
-- and hashes other characters; a searched fragment's edges may fall inside a word); the substring
-- test on search_text still decides every match. Every function is qualified by schema: index expressions
-- are evaluated by maintenance commands under a restricted search_path.
CREATE OR REPLACE FUNCTION ris_search_week(at timestamptz) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT floor(extract(epoch FROM at) / 604800)::integer $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ris_search_week_trigrams(normalised text, week integer) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array(SELECT week::text || ':' || t FROM unnest(public.show_trgm(normalised)) AS t
    WHERE t ~ '^[abcdefghijklmnopqrstuvwxyz0123456789]{3}$') $$;
--> statement-breakpoint
-- A study's keys: search_text is already lower-cased and unaccented.
CREATE OR REPLACE FUNCTION ris_search_week_keys(search_text text, created_at timestamptz) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.ris_search_week_trigrams(search_text, public.ris_search_week(created_at)) $$;
--> statement-breakpoint
-- A searched text's keys in one week, folded as search_text is. Only trigrams that occur in it
-- literally: show_trgm prints a trigram holding other characters as three hash bytes, which can
-- look like three ASCII letters ("ри " of a word cut off at the text's end prints as "qxi"); a study
-- need not have that key, while three ASCII letters or digits in a row lie inside one of its words.
CREATE OR REPLACE FUNCTION ris_search_query_keys(term text, week integer) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array(SELECT week::text || ':' || t
    FROM (SELECT lower(public.ris_unaccent(term)) AS text) AS folded, unnest(public.show_trgm(folded.text)) AS t
    WHERE t ~ '^[abcdefghijklmnopqrstuvwxyz0123456789]{3}$' AND strpos(folded.text, t) > 0) $$;
--> statement-breakpoint
CREATE INDEX "studies_search_week_idx" ON "studies" USING gin (ris_search_week_keys("search_text", "created_at"));
