-- Worklist search with a modality filter that makes its text rare ("chest" with MRI, "abdomen" with
-- X-ray). The other trigram indexes find the text's studies of every modality, and each was read to
-- be tested against the filter: an admin's tabs for "chest" with MRI over all dates read the 350,000
-- studies holding "chest" at 1,000,000 studies (740 ms) to find none. This index keys the same
-- trigrams by the study's modality group ("<group>:<trigram>"), so such a search reads only the
-- studies holding both (one index scan per group of the filter, ORed); its statistics (the keys'
-- frequencies) tell the worklist when to read it (features/worklist/list/worklist-search-modality.ts).
-- As in 0005: ASCII trigrams only, the substring test on search_text decides every match, and every
-- function is qualified by schema (index expressions run under a restricted search_path).
CREATE OR REPLACE FUNCTION ris_search_modality_keys(search_text text, modality_group modality_group) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array(SELECT modality_group::text || ':' || t
    FROM unnest(public.show_trgm(search_text)) AS t
    WHERE t ~ '^[abcdefghijklmnopqrstuvwxyz0123456789]{3}$') $$;
--> statement-breakpoint
-- A searched text's keys in one modality group, folded as search_text is, with the trigrams that
-- occur in it literally (see ris_search_query_keys in 0005 for why).
CREATE OR REPLACE FUNCTION ris_search_modality_query_keys(term text, modality_group modality_group) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array(SELECT modality_group::text || ':' || t
    FROM (SELECT lower(public.ris_unaccent(term)) AS text) AS folded, unnest(public.show_trgm(folded.text)) AS t
    WHERE t ~ '^[abcdefghijklmnopqrstuvwxyz0123456789]{3}$' AND strpos(folded.text, t) > 0) $$;
--> statement-breakpoint
CREATE INDEX "studies_search_modality_idx" ON "studies" USING gin (ris_search_modality_keys("search_text", "modality_group")) WITH (fastupdate=off);--> statement-breakpoint
-- Statistics of the new expression (the keys' frequencies), which decide when the index is read.
ANALYZE "studies";
