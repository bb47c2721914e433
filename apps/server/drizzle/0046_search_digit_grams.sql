-- Worklist search for an identifier: an MRN, an accession number, or the start or any part of one.
-- Their trigrams are each in most studies ("mrn", "rn0", "000" are in every MRN and accession of an
-- archive that numbers them), so the trigram indexes found half the archive for "mrn0000" (4,930
-- studies of 1,000,000: 100-460 ms) and a few hundred thousand candidates for a full accession
-- (22-32 ms for one study). This index keys each study by the five characters in a row of each of
-- its words (runs between spaces) that hold a digit: "mrn0047500" gives "mrn00" ... "47500". A
-- searched text holds its own such grams, so every study holding the text holds each of them: the
-- index finds exactly a superset of the matches, and the substring test on search_text decides
-- every match. Its statistics (the grams' frequencies) tell the worklist when to read it
-- (features/worklist/list/worklist-search-grams.ts, which makes a searched text's grams the same way).
-- Every function is qualified by schema (index expressions run under a restricted search_path).
CREATE OR REPLACE FUNCTION ris_search_digit_grams(search_text text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array(SELECT DISTINCT substr(w, i, 5) FROM unnest(string_to_array(search_text, ' ')) AS w,
    generate_series(1, length(w) - 4) AS i WHERE w ~ '[0-9]' AND substr(w, i, 5) ~ '[0-9]') $$;
--> statement-breakpoint
CREATE INDEX "studies_search_digit_idx" ON "studies" USING gin (ris_search_digit_grams("search_text")) WITH (fastupdate=off);--> statement-breakpoint
-- Statistics of the new expression (the grams' frequencies), so the first searches are planned on them.
ANALYZE "studies";
