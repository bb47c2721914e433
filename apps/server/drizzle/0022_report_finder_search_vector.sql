-- Report finder (issue 16): the search vector stems English and folds accents (weight A) and keeps
-- every word as written (weight B: stop words, words of other scripts), from content_text, which
-- holds the addenda too. Recomputed for every report; the GIN index is rebuilt without a pending list.
DROP INDEX "reports_search_vector_idx";--> statement-breakpoint
ALTER TABLE "reports" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, public.ris_unaccent(coalesce(content_text, ''))), 'A') || setweight(to_tsvector('simple'::regconfig, public.ris_unaccent(coalesce(content_text, ''))), 'B')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "reports_search_vector_idx" ON "reports" USING gin ("search_vector") WITH (fastupdate=false);