-- Worklist search in the open studies' tabs (Ordered, In progress): the open studies are a group's
-- working set, a few percent of the archive, where the text's keys in the other indexes find its
-- studies of every status, each read to be tested against the tab: an admin's Ordered tab of "bone"
-- over all dates read 13,000 studies of the week-keyed index's in runs of weeks to find 660 (250 ms at
-- 1,000,000 studies). This index holds the open studies only (the same predicate as the home page's
-- open indexes), keyed by their trigrams (as 0005: three ASCII letters or digits) and, for a text
-- without one ("ab", "李明"), their pairs of characters (as 0031); its statistics (the keys'
-- frequencies) tell the worklist when to read it (features/worklist/list/worklist-search-open.ts).
-- The substring test on search_text decides every match; every function is qualified by schema.
CREATE OR REPLACE FUNCTION ris_search_open_keys(search_text text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array(SELECT t FROM unnest(public.show_trgm(search_text)) AS t
    WHERE t ~ '^[abcdefghijklmnopqrstuvwxyz0123456789]{3}$') || public.ris_search_pairs(search_text) $$;
--> statement-breakpoint
-- A searched text's keys, folded as search_text is: the trigrams that occur in it literally (see
-- ris_search_query_keys in 0005), or its pairs when it holds none.
CREATE OR REPLACE FUNCTION ris_search_open_query_keys(term text) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT CASE WHEN cardinality(k.trigrams) > 0 THEN k.trigrams ELSE public.ris_search_pairs(k.folded) END
    FROM (SELECT folded.text AS folded, array(SELECT t FROM unnest(public.show_trgm(folded.text)) AS t
        WHERE t ~ '^[abcdefghijklmnopqrstuvwxyz0123456789]{3}$' AND strpos(folded.text, t) > 0) AS trigrams
      FROM (SELECT lower(public.ris_unaccent(term)) AS text) AS folded) AS k $$;
--> statement-breakpoint
CREATE INDEX "studies_search_open_idx" ON "studies" USING gin (ris_search_open_keys("search_text")) WITH (fastupdate=off) WHERE "studies"."status" not in ('FINAL', 'DELETED');--> statement-breakpoint
-- Statistics of the new expression (the keys' frequencies among open studies), which decide when the
-- index is read.
ANALYZE "studies";
