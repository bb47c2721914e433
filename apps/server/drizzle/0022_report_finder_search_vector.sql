-- Report finder (issue 16): text search configurations that fold accents before the dictionaries
-- (unaccent as a filtering dictionary), so the vector, the query and ts_headline over the original
-- text all agree ("oedème" and "oedeme" are one word, and the snippet still shows the accents).
-- ris_english stems English; ris_simple keeps every word as written (stop words, other scripts).
-- Dictionaries and configurations are qualified by schema: generated columns and index expressions
-- are evaluated under a restricted search_path.
CREATE TEXT SEARCH CONFIGURATION public.ris_english (COPY = pg_catalog.english);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION public.ris_english
  ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part
  WITH public.unaccent, pg_catalog.english_stem;
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION public.ris_simple (COPY = pg_catalog.simple);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION public.ris_simple
  ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part
  WITH public.unaccent, pg_catalog.simple;
--> statement-breakpoint
-- The vector: English stems at weight A, the words as written at weight B, from content_text (which
-- holds the addenda too). Recomputed for every report; the GIN index is rebuilt without a pending list.
DROP INDEX "reports_search_vector_idx";--> statement-breakpoint
ALTER TABLE "reports" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('public.ris_english'::regconfig, coalesce(content_text, '')), 'A') || setweight(to_tsvector('public.ris_simple'::regconfig, coalesce(content_text, '')), 'B')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "reports_search_vector_idx" ON "reports" USING gin ("search_vector") WITH (fastupdate=false);
