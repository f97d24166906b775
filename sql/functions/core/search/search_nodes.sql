-- Entities of a simulation most similar to a query embedding, best first (1 - cosine
-- distance); p_top_k clamped to 1..100 (NULL means 10); p_type narrows to one type. p_by
-- says what is compared: 'name' (the vector of "{type}: {name}"), 'summary' (the vector of
-- the entity's summary), 'both' (the nearer of the two) or 'meaning' (the summary's vector,
-- or the name's for an entity without a summary: recall's entities arm, V0036); anything
-- else 22023. p_model, the model of the query vector: refused (22023) when it is not the
-- simulation's (memory._check_query_model); NULL names the default model, so a vector
-- without its model is refused on a simulation of another.
-- The ranking is memory._search_nodes': through the simulation's pair of entity indexes
-- where they exist (V0035), exactly otherwise.
CREATE OR REPLACE FUNCTION memory.search_nodes(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer DEFAULT 10,
    p_type text DEFAULT NULL,
    p_by text DEFAULT 'name',
    p_model text DEFAULT NULL)
RETURNS TABLE (node_id text, name text, type text, summary text, similarity double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, p_model);
    PERFORM memory._not_null(p_by, 'p_by', 'pass ''name'', ''summary'', ''both'' or ''meaning''');
    PERFORM memory._one_of('p_by', p_by, '{name, summary, both, meaning}');
    RETURN QUERY SELECT * FROM memory._search_nodes(
        p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_query => p_query,
        p_top_k => p_top_k, p_type => p_type, p_by => p_by, p_breadth => NULL);
END
$fn$;

COMMENT ON FUNCTION memory.search_nodes(uuid, uuid, public.vector, integer, text, text, text) IS 'Semantic search over a simulation''s entities by name, summary, both or meaning (cosine), best first, through its entity indexes where they exist; top_k clamped to 1..100';
GRANT EXECUTE ON FUNCTION memory.search_nodes(uuid, uuid, public.vector, integer, text, text, text) TO memory_reader;
