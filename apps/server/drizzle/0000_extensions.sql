-- Extensions used for search (both ship with PostgreSQL's contrib and with PGlite's contrib bundle):
-- pg_trgm for substring search (GIN gin_trgm_ops), unaccent for accent-insensitive matching.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change), so it cannot appear in a generated column
-- or an index. This wrapper names the dictionary explicitly and is declared IMMUTABLE; the
-- search_text columns and queries call ris_unaccent() so both sides normalise the same way.
CREATE OR REPLACE FUNCTION ris_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;
