-- Worklist search with a modality filter, for a text without trigram keys ("ct", "ab", "李明"): the
-- modality-keyed index (0041) knew trigrams only, so such a text was tested on every study of the
-- filter's groups. Two letters one modality's descriptions hold and the filter's do not were the
-- slowest requests a user could click: an admin's tabs of "ct" with MRI and X-ray over all dates read
-- the groups' 500,000 studies to find none (330 ms at 1,000,000 studies), "ab" with MRI 255 ms.
-- The index now also keys each study's pairs of characters by its modality group ("<group>:<pair>",
-- the pairs of ris_search_pairs, 0031); a pair has two characters and a trigram three, so the keys
-- never meet. A searched text's keys are its trigrams when it has any (as before), else its pairs.
-- As in 0005: the substring test on search_text decides every match, and every function is
-- qualified by schema (index expressions run under a restricted search_path).
CREATE OR REPLACE FUNCTION ris_search_modality_keys(search_text text, modality_group modality_group) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array(SELECT modality_group::text || ':' || k
    FROM (SELECT t AS k FROM unnest(public.show_trgm(search_text)) AS t
        WHERE t ~ '^[abcdefghijklmnopqrstuvwxyz0123456789]{3}$'
      UNION SELECT p FROM unnest(public.ris_search_pairs(search_text)) AS p) AS keys) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ris_search_modality_query_keys(term text, modality_group modality_group) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array(SELECT modality_group::text || ':' || k
    FROM (SELECT CASE WHEN cardinality(q.trigrams) > 0 THEN q.trigrams ELSE public.ris_search_pairs(q.folded) END AS keys
      FROM (SELECT folded.text AS folded, array(SELECT t FROM unnest(public.show_trgm(folded.text)) AS t
          WHERE t ~ '^[abcdefghijklmnopqrstuvwxyz0123456789]{3}$' AND strpos(folded.text, t) > 0) AS trigrams
        FROM (SELECT lower(public.ris_unaccent(term)) AS text) AS folded) AS q) AS chosen, unnest(chosen.keys) AS k) $$;
--> statement-breakpoint
-- Its entries computed again with the new keys (the expression is unchanged, its function's result is not).
REINDEX INDEX "studies_search_modality_idx";
--> statement-breakpoint
-- Statistics of the new keys (the pairs' frequencies per group), which decide when the index is read.
ANALYZE "studies";
