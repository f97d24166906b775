-- Zep's graph.search over one graph: memory.recall (the recall wing: meaning, words and the
-- graph fused by reciprocal rank, current facts as of now) asked for one kind of row, each
-- hit read back whole in Zep's shape, best first, with the fused score as Zep's score.
-- p_scope: edges (facts, the default), nodes (entities) or episodes; any other is 22023.
-- p_limit: Zep's default 10 when NULL, Zep's cap 50 above it, 22023 below 1. p_query_vector
-- is the query embedded with the graph's model (memory.zep_graph says which), p_model names
-- that model (memory.recall refuses a vector of another than the simulation's).
CREATE OR REPLACE FUNCTION memory.zep_search(p_tenant_id uuid, p_graph_id text, p_query text,
                                             p_query_vector public.vector, p_scope text DEFAULT 'edges',
                                             p_limit integer DEFAULT 10, p_model text DEFAULT NULL)
RETURNS SETOF jsonb
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_sim     uuid := memory._zep_simulation(p_tenant_id, p_graph_id);
    v_scope   text := memory._one_of('scope', COALESCE(p_scope, 'edges'), ARRAY['edges', 'nodes', 'episodes'],
                                     'the scopes served are edges, nodes and episodes');
    v_limit   integer := COALESCE(p_limit, 10);
    v_options jsonb;
BEGIN
    IF v_limit < 1 THEN
        RAISE EXCEPTION 'limit % is below 1', v_limit
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a limit from 1 to 50';
    END IF;
    v_options := pg_catalog.jsonb_build_object(
        'kinds', pg_catalog.jsonb_build_array(CASE v_scope WHEN 'edges' THEN 'fact'
                                                            WHEN 'nodes' THEN 'entity'
                                                            ELSE 'episode' END));
    IF p_model IS NOT NULL THEN
        v_options := v_options OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('model', p_model);
    END IF;
    RETURN QUERY
    SELECT CASE v_scope
           WHEN 'edges' THEN
               (SELECT memory._zep_edge(memory._edge_detail(ROW(e.*)::memory.edges), e.created_at)
                  FROM memory.edges AS e
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim
                   AND e.edge_key = pg_catalog.md5(r.id)::uuid)
           WHEN 'nodes' THEN
               (SELECT memory._zep_node(n.node_id, n.name, n.type, n.labels, n.summary, n.attributes, n.created_at)
                  FROM memory.nodes AS n
                 WHERE n.tenant_id = p_tenant_id AND n.simulation_id = v_sim
                   AND n.node_key = pg_catalog.md5(r.id)::uuid)
           ELSE
               (SELECT pg_catalog.jsonb_build_object(
                           'uuid', x.episode_id,
                           'content', COALESCE(x.content, ''),
                           'created_at', memory._zep_time(COALESCE(x.occurred_at, x.created_at)),
                           -- an episode added through serve says its own source and whether
                           -- its extraction committed; an imported action is processed
                           'source', COALESCE(z.source, 'text'),
                           'processed', COALESCE(z.status = 'succeeded', true),
                           'metadata', x.metadata OPERATOR(pg_catalog.||) pg_catalog.jsonb_strip_nulls(
                               pg_catalog.jsonb_build_object('agent_id', x.agent_id, 'agent_name', x.agent_name,
                                                             'platform', x.platform, 'round', x.round,
                                                             'action_type', x.action_type)))
                  FROM memory.episodes AS x
                  LEFT JOIN memory.zep_episodes AS z
                    ON z.tenant_id = x.tenant_id AND z.simulation_id = x.simulation_id
                   AND z.episode_uuid = CASE WHEN pg_catalog.pg_input_is_valid(x.episode_id, 'uuid')
                                             THEN x.episode_id::uuid END
                 WHERE x.tenant_id = p_tenant_id AND x.simulation_id = v_sim
                   AND x.episode_key = pg_catalog.md5(r.id)::uuid)
           END OPERATOR(pg_catalog.||) pg_catalog.jsonb_build_object('score', r.score)
      FROM memory.recall(p_tenant_id, v_sim, p_query, p_query_vector, LEAST(v_limit, 50), v_options)
           WITH ORDINALITY AS r (kind, id, text, score, ranks, why, copies, agents, ord)
     ORDER BY r.ord;
END
$fn$;

COMMENT ON FUNCTION memory.zep_search(uuid, text, text, public.vector, text, integer, text) IS 'Zep graph.search over one graph: memory.recall for one kind (edges, nodes, episodes), each hit in Zep''s shape with its fused score';
GRANT EXECUTE ON FUNCTION memory.zep_search(uuid, text, text, public.vector, text, integer, text) TO memory_reader;
