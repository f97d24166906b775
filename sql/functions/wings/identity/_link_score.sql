-- The one home of how strongly the evidence says that two entities are one: a weighted sum
-- of the name (the same name 1, a shared alias just under it, else trigram similarity), the
-- meaning of what is said of them (their summaries' vectors, else their names'), the share
-- of their neighbours that carry the same names, and the same type. The weights favour the
-- name but let a renamed entity with the same summary and neighbours pass, and keep two
-- different people of one scenario (same type, similar summaries) apart.
CREATE OR REPLACE FUNCTION memory._link_score(p_same_name boolean, p_alias boolean, p_name_trigram real,
                                              p_meaning real, p_neighbours real, p_same_type boolean)
RETURNS real
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT LEAST(1, GREATEST(0,
             0.45 * GREATEST(CASE WHEN p_same_name THEN 1 WHEN p_alias THEN 0.95 ELSE 0 END,
                             COALESCE(p_name_trigram, 0))
           + 0.25 * GREATEST(COALESCE(p_meaning, 0), 0)
           + 0.20 * COALESCE(p_neighbours, 0)
           + 0.10 * CASE WHEN p_same_type THEN 1 ELSE 0 END))::real
$fn$;

COMMENT ON FUNCTION memory._link_score(boolean, boolean, real, real, real, boolean) IS 'Internal: the score of a candidate link from its evidence (name, alias, trigrams, meaning, neighbours, type)';
GRANT EXECUTE ON FUNCTION memory._link_score(boolean, boolean, real, real, real, boolean) TO memory_reader;
