-- Facts (edges) of a simulation most similar to a query embedding, best first (1 - cosine
-- distance of the fact's text), in a state at a world time (memory.facts' states, current
-- by default; p_as_of NULL: now); each with both ends named and its validity. Through the
-- simulation's own HNSW index over its facts where it has one (memory.ann_plan_facts,
-- swarm-memory index; memory._search_facts_ann), else, and whenever the index gives fewer
-- rows than asked for, an exact scan of the simulation's facts (their rows by the primary
-- key's (tenant, simulation) prefix), which a MiroFish graph of 10,000 entities makes slow
-- (bench/README.md). p_top_k clamped to 1..100 (NULL: 10).
-- p_model, the model of the query vector: refused (22023) when it is not the simulation's
-- (memory._check_query_model); NULL names the default model, so a vector without its model
-- is refused on a simulation of another. The ranking is memory._search_facts'.
CREATE OR REPLACE FUNCTION memory.search_facts(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer DEFAULT 10,
    p_state text DEFAULT 'current',
    p_as_of timestamptz DEFAULT NULL,
    p_model text DEFAULT NULL)
RETURNS TABLE (edge_id text, type text, fact text, source_id text, source_name text, target_id text,
               target_name text, valid_at timestamptz, invalid_at timestamptz, state text,
               similarity double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, p_model);
    PERFORM memory._check_fact_state(p_state);
    -- each end named by a probe of the primary key (a join was planned as two hash joins over
    -- all the simulation's nodes, for at most 100 facts)
    RETURN QUERY
    SELECT f.edge_id, f.type, f.fact,
           f.source_id, (SELECT s.name FROM memory.nodes AS s
                          WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id AND s.node_key = f.source_key),
           f.target_id, (SELECT t.name FROM memory.nodes AS t
                          WHERE t.tenant_id = p_tenant_id AND t.simulation_id = p_simulation_id AND t.node_key = f.target_key),
           f.valid_at, f.invalid_at, f.state, f.similarity
      FROM memory._search_facts(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                                p_query => p_query, p_top_k => p_top_k, p_state => p_state,
                                p_as_of => p_as_of, p_breadth => NULL) AS f
     ORDER BY f.similarity DESC, f.edge_id;
END
$fn$;

COMMENT ON FUNCTION memory.search_facts(uuid, uuid, public.vector, integer, text, timestamptz, text) IS 'Semantic search over a simulation''s facts (cosine), current ones by default, best first; top_k clamped to 1..100';
GRANT EXECUTE ON FUNCTION memory.search_facts(uuid, uuid, public.vector, integer, text, timestamptz, text) TO memory_reader;
