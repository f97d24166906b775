-- The names an entity goes by, normalised for comparison (lower case, runs of space as one,
-- trimmed): its name and the aliases its attributes carry (an `aliases` array of strings, or
-- an `alias` string, as an extraction or a person may record them). Two entities of
-- different runs that share one of these names are candidates for one identity.
CREATE OR REPLACE FUNCTION memory._identity_names(p_name text, p_attributes jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.array_agg(DISTINCT v.n ORDER BY v.n)
      FROM (SELECT pg_catalog.btrim(pg_catalog.regexp_replace(pg_catalog.lower(x.t), '\s+', ' ', 'g')) AS n
              FROM (SELECT p_name AS t
                    UNION ALL
                    SELECT a.t FROM pg_catalog.jsonb_array_elements_text(
                        CASE WHEN pg_catalog.jsonb_typeof(p_attributes -> 'aliases') = 'array'
                             THEN pg_catalog.jsonb_path_query_array(p_attributes -> 'aliases', '$[*] ? (@.type() == "string")')
                             ELSE '[]'::jsonb END) AS a(t)
                    UNION ALL
                    SELECT p_attributes ->> 'alias' WHERE pg_catalog.jsonb_typeof(p_attributes -> 'alias') = 'string'
                   ) AS x) AS v
     WHERE v.n <> ''
$fn$;

COMMENT ON FUNCTION memory._identity_names(text, jsonb) IS 'Internal: an entity''s name and aliases, normalised: what two runs'' entities are matched by';
GRANT EXECUTE ON FUNCTION memory._identity_names(text, jsonb) TO memory_reader;
