-- Worklist search for a text of one character, or of characters no pair of which the pair-keyed index
-- keeps ("q", "李", "'", "7 q"): the index (0031) held pairs only, so such a text was tested on every
-- study of the range. One that few studies hold was the slowest search a user could start by typing a
-- single character and pausing: "李" over an admin's all dates read 1,000,000 rows to find none (360 ms
-- at 1,000,000 studies), "q" over a week 77,000 (240 ms). The index now also keys each study by its
-- single characters (letters of any script, punctuation; not spaces, not digits, which ids and
-- accessions are full of and a single one finds everywhere), and a searched text's keys are its
-- pairs when it has any (as before), else its single characters. A pair has two characters and a
-- single one, so the keys never meet. The open studies' and the modality-keyed indexes keep their
-- keys (ris_search_pairs): a one-character text is not looked up in them (worklist-search-open.ts).
-- As in 0031: the substring test on search_text decides every match, and every function is
-- qualified by schema (index expressions run under a restricted search_path).
CREATE OR REPLACE FUNCTION ris_search_pair_keys(normalised text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.ris_search_pairs(normalised) || array(SELECT c FROM (SELECT substr(normalised, i, 1) AS c
    FROM generate_series(1, length(normalised)) AS i) AS characters
    WHERE c !~ '[[:space:]]|[0-9]') $$;
--> statement-breakpoint
-- A searched text's keys, folded as search_text is (lower-cased, unaccented): its pairs, else its
-- single characters (none for a text of spaces and digits: it is not looked up in the index).
CREATE OR REPLACE FUNCTION ris_search_query_pairs(term text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT CASE WHEN cardinality(k.pairs) > 0 THEN k.pairs ELSE public.ris_search_pair_keys(k.folded) END
    FROM (SELECT f.folded, public.ris_search_pairs(f.folded) AS pairs
      FROM (SELECT lower(public.ris_unaccent(term)) AS folded) AS f) AS k $$;
--> statement-breakpoint
DROP INDEX IF EXISTS "studies_search_pair_idx";--> statement-breakpoint
CREATE INDEX "studies_search_pair_idx" ON "studies" USING gin (ris_search_pair_keys("search_text")) WITH (fastupdate=off);--> statement-breakpoint
-- Statistics of the new expression (the keys' frequencies), so the first searches are planned on them.
ANALYZE "studies";
