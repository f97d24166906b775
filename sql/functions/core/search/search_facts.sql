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
-- p_round (the simulation's own clock) stands for p_as_of: the moment the round ended
-- (passing both is 22023, a negative round too); p_snapshot, a name from
-- memory.create_snapshot, reads the facts and their ends' names as the memory held them at
-- its record time, at its round unless p_as_of or p_round says otherwise
-- (memory._read_clock; an unknown or dropped snapshot is P0002). A snapshot's search is
-- memory._search_facts_known's exact scan: facts written since are not seen, facts changed
-- or removed since are seen as they were.
CREATE OR REPLACE FUNCTION memory.search_facts(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer DEFAULT 10,
    p_state text DEFAULT 'current',
    p_as_of timestamptz DEFAULT NULL,
    p_model text DEFAULT NULL,
    p_round integer DEFAULT NULL,
    p_snapshot text DEFAULT NULL)
RETURNS TABLE (edge_id text, type text, fact text, source_id text, source_name text, target_id text,
               target_name text, valid_at timestamptz, invalid_at timestamptz, state text,
               similarity double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_as_of timestamptz := p_as_of;
    v_known timestamptz;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, p_model);
    PERFORM memory._check_fact_state(p_state);
    IF p_round IS NOT NULL OR p_snapshot IS NOT NULL THEN
        SELECT c.as_of, c.known_at INTO v_as_of, v_known
          FROM memory._read_clock(p_tenant_id, p_simulation_id, p_as_of, NULL, p_round, p_snapshot) AS c;
        -- a snapshot taken in this transaction: the memory it reads is the memory now
        v_known := CASE WHEN v_known < pg_catalog.now() THEN v_known END;
    END IF;
    IF v_known IS NOT NULL THEN
        -- each end named as the memory held it then
        RETURN QUERY
        WITH known_names AS MATERIALIZED (
            SELECT n.node_key, n.name
              FROM memory._known(NULL::memory.nodes, p_tenant_id, p_simulation_id, v_known) AS n
        )
        SELECT f.edge_id, f.type, f.fact,
               f.source_id, (SELECT s.name FROM known_names AS s WHERE s.node_key = f.source_key),
               f.target_id, (SELECT t.name FROM known_names AS t WHERE t.node_key = f.target_key),
               f.valid_at, f.invalid_at, f.state, f.similarity
          FROM memory._search_facts_known(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                                          p_query => p_query, p_top_k => p_top_k, p_state => p_state,
                                          p_as_of => v_as_of, p_known_at => v_known) AS f
         ORDER BY f.similarity DESC, f.edge_id;
        RETURN;
    END IF;
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
                                p_as_of => v_as_of, p_breadth => NULL) AS f
     ORDER BY f.similarity DESC, f.edge_id;
END
$fn$;

COMMENT ON FUNCTION memory.search_facts(uuid, uuid, public.vector, integer, text, timestamptz, text, integer, text) IS 'Semantic search over a simulation''s facts (cosine), current ones by default, at a world time or round, as held at a snapshot, best first; top_k clamped to 1..100';
GRANT EXECUTE ON FUNCTION memory.search_facts(uuid, uuid, public.vector, integer, text, timestamptz, text, integer, text) TO memory_reader;
