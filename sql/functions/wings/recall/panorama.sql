-- The report agent's panorama: everything the memory holds about a question, current and
-- historical. The entities and facts memory.recall finds for it (its routed arms, up to
-- p_limit), then the facts of each entity found in any state (memory.facts 'all', the 100
-- of each it orders first), each row with its kind (entity or fact), id, text, state
-- (facts), validity, and the fused score of what recall found itself (NULL for the facts
-- added as an entity's). p_limit clamped to 1..100 (NULL: 30). p_model, the model of
-- p_query_vector, goes to recall as its option model: another than the simulation's is
-- 22023, and NULL names the default model (memory._check_query_model). Bad question or
-- model: memory.recall's errors.
-- p_round: the panorama as it stood when that round of the simulation ended (recall's
-- option round; each fact's state at the round's end, memory._read_clock). It takes no
-- snapshot: its arms by words, names and the graph read the memory as it is now.
CREATE OR REPLACE FUNCTION memory.panorama(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query_text text,
    p_query_vector public.vector,
    p_limit integer DEFAULT 30,
    p_model text DEFAULT NULL,
    p_round integer DEFAULT NULL)
RETURNS TABLE (kind text, id text, text text, state text, valid_at timestamptz, invalid_at timestamptz,
               score double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_limit integer := LEAST(GREATEST(COALESCE(p_limit, 30), 1), 100);
    v_as_of timestamptz := pg_catalog.now();
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    IF p_round IS NOT NULL THEN
        SELECT c.as_of INTO v_as_of
          FROM memory._read_clock(p_tenant_id, p_simulation_id, NULL, NULL, p_round, NULL) AS c;
    END IF;
    RETURN QUERY
    WITH found AS MATERIALIZED (
        SELECT r.kind, r.id, r.text, r.score
          FROM memory.recall(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                             p_query_text => p_query_text, p_query_vector => p_query_vector,
                             p_top_k => v_limit,
                             p_options => pg_catalog.jsonb_build_object(
                                 'arms', '["facts", "entities", "words", "graph"]'::jsonb,
                                 'model', p_model)
                             || CASE WHEN p_round IS NOT NULL THEN pg_catalog.jsonb_build_object('round', p_round)
                                     ELSE '{}'::jsonb END) AS r
         WHERE r.kind IN ('entity', 'fact')
    ), rows AS (
        SELECT 'entity' AS kind, f.id, f.text, NULL::text AS state, NULL::timestamptz AS valid_at,
               NULL::timestamptz AS invalid_at, f.score
          FROM found AS f WHERE f.kind = 'entity'
        UNION ALL
        SELECT 'fact', x.edge_id, x.fact, x.state, x.valid_at, x.invalid_at,
               (SELECT f.score FROM found AS f WHERE f.kind = 'fact' AND f.id = x.edge_id)
          FROM found AS f
         CROSS JOIN LATERAL memory.facts(p_tenant_id => p_tenant_id,
                                         p_simulation_id => p_simulation_id, p_node_id => f.id,
                                         p_state => 'all', p_as_of => NULL, p_limit => 100,
                                         p_round => p_round) AS x
         WHERE f.kind = 'entity'
        UNION ALL
        -- a fact recall found, from its own row (read among its source's facts, it was lost
        -- when the source had more than 100 newer ones); its state at this moment, or at the round's end
        SELECT 'fact', e.edge_id, e.fact, memory._fact_state(e.valid_at, e.invalid_at, e.expired_at, v_as_of),
               e.valid_at, e.invalid_at, f.score
          FROM found AS f
          JOIN memory.edges AS e ON e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND e.edge_key = pg_catalog.md5(f.id)::uuid
         WHERE f.kind = 'fact'
    )
    SELECT DISTINCT ON (r.kind, r.id) r.kind, r.id, r.text, r.state, r.valid_at, r.invalid_at, r.score
      FROM rows AS r
     ORDER BY r.kind, r.id, r.score DESC NULLS LAST;
END
$fn$;

COMMENT ON FUNCTION memory.panorama(uuid, uuid, text, public.vector, integer, text, integer) IS 'Everything about a question: the entities and facts recall finds and every fact of those entities, current and historical, now or at a round''s end';
GRANT EXECUTE ON FUNCTION memory.panorama(uuid, uuid, text, public.vector, integer, text, integer) TO memory_reader;
