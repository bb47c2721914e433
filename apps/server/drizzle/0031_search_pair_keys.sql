-- Worklist search for a text no trigram key holds: fewer than three ASCII letters or digits in a row
-- ("xu", "sm", "li w", "李明", "o'b"). The trigram indexes cannot find its studies (pg_trgm extracts no
-- trigram from it, so studies_search_trgm_idx would be read whole), and every study of the range was
-- read instead: a text no study holds took 0.9-1.2 s over an admin's month or all dates at 1,000,000
-- studies, 90-120 ms at a staff member's facilities. This index keys each study by the pairs of
-- consecutive characters of search_text (letters of any script, punctuation): a study holding the
-- text holds each of its pairs, so a rare text's few studies are found by key. Pairs with a space
-- (word edges) or of two digits (ids and accessions are full of them) are left out: they find little
-- on their own, and each key costs every insert and update of a study. The substring test on
-- search_text still decides every match. Every function is qualified by schema: index expressions
-- are evaluated by maintenance commands under a restricted search_path.
CREATE OR REPLACE FUNCTION ris_search_pairs(normalised text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array(SELECT pair FROM (SELECT substr(normalised, i, 2) AS pair
    FROM generate_series(1, length(normalised) - 1) AS i) AS pairs
    WHERE pair !~ '[[:space:]]|^[0-9][0-9]$') $$;
--> statement-breakpoint
-- A searched text's pairs, folded as search_text is (lower-cased, unaccented).
CREATE OR REPLACE FUNCTION ris_search_query_pairs(term text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.ris_search_pairs(lower(public.ris_unaccent(term))) $$;
--> statement-breakpoint
CREATE INDEX "studies_search_pair_idx" ON "studies" USING gin (ris_search_pairs("search_text")) WITH (fastupdate=off);--> statement-breakpoint
-- Statistics of the new expression (the pairs' frequencies), so the first searches are planned on them.
ANALYZE "studies";
