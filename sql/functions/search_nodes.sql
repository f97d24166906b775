-- Entities of a simulation most similar to a query embedding, best first (1 - cosine
-- distance); p_top_k clamped to 1..100 (NULL means 10); p_type narrows to one type.
CREATE OR REPLACE FUNCTION memory.search_nodes(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer DEFAULT 10,
    p_type text DEFAULT NULL)
RETURNS TABLE (node_id text, name text, type text, summary text, similarity double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    RETURN QUERY
    SELECT n.node_id, n.name, n.type, n.summary,
           1 - (n.embedding OPERATOR(public.<=>) p_query::public.vector(384))
      FROM memory.nodes AS n
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
       AND n.embedding IS NOT NULL
       AND (p_type IS NULL OR n.type = p_type)
     ORDER BY n.embedding OPERATOR(public.<=>) p_query::public.vector(384), n.node_id
     LIMIT LEAST(GREATEST(COALESCE(p_top_k, 10), 1), 100);
END
$fn$;

COMMENT ON FUNCTION memory.search_nodes(uuid, uuid, public.vector, integer, text) IS 'Semantic search over a simulation''s entities (cosine), best first; top_k clamped to 1..100';
REVOKE ALL ON FUNCTION memory.search_nodes(uuid, uuid, public.vector, integer, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.search_nodes(uuid, uuid, public.vector, integer, text) TO memory_reader;
