-- Worklist search within weeks for an identifier many studies hold: the week-keyed index (0005) also
-- keys each study by its digit grams (0046: the five characters in a row, within each word, that hold
-- a digit) in its week. "A0003", the prefix of 100,000 accessions all received 54-63 days ago, found
-- every study of each week walked by its trigrams ("a00", "000", "003" are in every accession), so an
-- admin's walk over all dates read the newest weeks whole to find none (310 ms at 1,000,000 studies)
-- and a month took 50-90 ms for no match. A searched text's keys in a week are now its trigrams and
-- its digit grams, each of which a study holding the text holds: the index still finds a superset of
-- the matches, and the substring test on search_text decides every match. Every function is
-- qualified by schema (index expressions run under a restricted search_path).
CREATE OR REPLACE FUNCTION ris_search_week_keys(search_text text, created_at timestamptz) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.ris_search_week_trigrams(search_text, w.week)
      || array(SELECT w.week::text || ':' || g FROM unnest(public.ris_search_digit_grams(search_text)) AS g)
    FROM (SELECT public.ris_search_week(created_at) AS week) AS w $$;
--> statement-breakpoint
-- A searched text's keys in one week, folded as search_text is: its trigrams that occur in it
-- literally (as in 0005), and its digit grams.
CREATE OR REPLACE FUNCTION ris_search_query_keys(term text, week integer) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array(SELECT week::text || ':' || t FROM unnest(public.show_trgm(folded.text)) AS t
      WHERE t ~ '^[abcdefghijklmnopqrstuvwxyz0123456789]{3}$' AND strpos(folded.text, t) > 0)
    || array(SELECT week::text || ':' || g FROM unnest(public.ris_search_digit_grams(folded.text)) AS g)
    FROM (SELECT lower(public.ris_unaccent(term)) AS text) AS folded $$;
--> statement-breakpoint
-- The index's keys changed with its function: built again.
DROP INDEX IF EXISTS "studies_search_week_idx";--> statement-breakpoint
CREATE INDEX "studies_search_week_idx" ON "studies" USING gin (ris_search_week_keys("search_text", "created_at")) WITH (fastupdate=off);--> statement-breakpoint
ANALYZE "studies";
