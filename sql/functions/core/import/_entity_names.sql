-- The names an entity goes by in text, for matching actions against it (memory._link_evidence,
-- memory.timeline): its name and its aliases (attributes `aliases`, a list of strings, or
-- `alias`, a string), trimmed, those of at least two characters (a one-letter name would
-- match nearly every text), each once.
CREATE OR REPLACE FUNCTION memory._entity_names(p_name text, p_attributes jsonb)
RETURNS SETOF text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT DISTINCT pg_catalog.btrim(v.label)
      FROM (SELECT p_name
            UNION ALL
            SELECT a.alias
              FROM pg_catalog.jsonb_array_elements_text(
                       CASE pg_catalog.jsonb_typeof(p_attributes -> 'aliases')
                            WHEN 'array' THEN p_attributes -> 'aliases' ELSE '[]'::jsonb END) AS a (alias)
            UNION ALL
            SELECT p_attributes ->> 'alias' WHERE pg_catalog.jsonb_typeof(p_attributes -> 'alias') = 'string') AS v (label)
     WHERE pg_catalog.char_length(pg_catalog.btrim(v.label)) >= 2
$fn$;

COMMENT ON FUNCTION memory._entity_names(text, jsonb) IS 'Internal: an entity''s name and aliases (attributes aliases / alias), trimmed, at least two characters';
GRANT EXECUTE ON FUNCTION memory._entity_names(text, jsonb) TO memory_reader;
