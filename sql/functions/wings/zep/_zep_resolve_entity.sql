-- The entity of a graph an extracted name is, if any: the one named so (name or alias, in
-- any case), else the closest by trigram similarity of the names (at least 0.8, lower case,
-- CJK runs as bigrams as memory._words_text cuts them), else by the cosine of the
-- "{type}: {name}" vectors (at least 0.95, vectors of one model); of a compatible type (the
-- same, or either the generic "Entity"). Returns its id, its name, how it was found
-- ('name', 'trigram', 'meaning') and the score; no row when none is close enough.
-- The thresholds are strict on purpose: two entities wrongly made one mix their facts for
-- good, while one entity made two is merged by naming it again (an alias).
CREATE OR REPLACE FUNCTION memory._zep_resolve_entity(p_tenant_id uuid, p_simulation_id uuid, p_name text,
                                                      p_type text, p_embedding public.vector, p_model text)
RETURNS TABLE (node_id text, name text, found_by text, score real)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    WITH candidates AS (
        SELECT n.node_id, n.name,
               CASE WHEN pg_catalog.lower(n.name) = pg_catalog.lower(p_name)
                      OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_array_elements_text(
                                                   CASE WHEN pg_catalog.jsonb_typeof(n.attributes -> 'aliases') = 'array'
                                                        THEN n.attributes -> 'aliases' ELSE '[]'::jsonb END) AS a
                                  WHERE pg_catalog.lower(a) = pg_catalog.lower(p_name)) THEN 'name' END AS by_name,
               public.similarity(pg_catalog.lower(memory._words_text(n.name)),
                                 pg_catalog.lower(memory._words_text(p_name))) AS trigram,
               CASE WHEN p_embedding IS NOT NULL AND n.embedding IS NOT NULL AND n.embedding_model = p_model
                    THEN (1 - (n.embedding OPERATOR(public.<=>) p_embedding))::real END AS cosine
          FROM memory.nodes AS n
         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
           AND (n.type = p_type OR n.type = 'Entity' OR p_type = 'Entity')
    )
    SELECT c.node_id, c.name,
           CASE WHEN c.by_name IS NOT NULL THEN 'name' WHEN c.trigram >= 0.8 THEN 'trigram' ELSE 'meaning' END,
           CASE WHEN c.by_name IS NOT NULL THEN 1::real WHEN c.trigram >= 0.8 THEN c.trigram ELSE c.cosine END
      FROM candidates AS c
     WHERE c.by_name IS NOT NULL OR c.trigram >= 0.8 OR c.cosine >= 0.95
     ORDER BY (c.by_name IS NOT NULL) DESC, (c.trigram >= 0.8) DESC, GREATEST(c.trigram, c.cosine) DESC, c.node_id
     LIMIT 1;
$fn$;

COMMENT ON FUNCTION memory._zep_resolve_entity(uuid, uuid, text, text, public.vector, text) IS 'Internal: the entity of a graph an extracted name is (name or alias, trigram >= 0.8, cosine >= 0.95)';
GRANT EXECUTE ON FUNCTION memory._zep_resolve_entity(uuid, uuid, text, text, public.vector, text) TO memory_writer;
