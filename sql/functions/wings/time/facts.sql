-- The facts of a simulation (NULL p_node_id) or of one node (the edges it is either end of)
-- in a state at a world time (the rule of memory._fact_state): p_state 'current' (holding at p_as_of), 'historical' (ended
-- or expired by then: what the report agent shows as history), 'future' (not begun yet) or
-- 'all'; p_as_of NULL means now, infinity the latest state. Each fact with both ends' ids and
-- names, its type and text, its validity window (valid_at, invalid_at) and when the graph
-- learned it and its end (learned_at, expired_at), its state (memory._fact_state) and the
-- ids of the episodes it was extracted from. Newest first: by valid_at (unknown last), then
-- id; p_limit clamped to 1..1000 (NULL: 100). Unknown node: P0002; unknown state: 22023.
-- p_round (the simulation's own clock) stands for p_as_of: the moment the round ended;
-- p_known_at (record time, NULL: now) reads the facts and names as the memory held them then
-- (memory._known over memory.row_history); p_snapshot, a name from memory.create_snapshot,
-- stands for p_known_at and its round (memory._read_clock).
--
-- The plan is generic, made once a session and cached (force_generic_plan, as
-- memory.neighbors'): the simulation's edges and a node's are two branches of one statement;
-- the branch that does not apply sits behind a one-time filter and never runs, and a node's
-- edges are read through edges_out_idx and edges_in_idx. Planned for each call's values, the
-- statement cost more to plan than to run, and memory.panorama calls it for each entity it
-- finds (bench/README.md). On a Citus cluster
-- memory._use_custom_plans makes it plan each call again.
CREATE OR REPLACE FUNCTION memory.facts(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_node_id text DEFAULT NULL,
    p_state text DEFAULT 'current',
    p_as_of timestamptz DEFAULT NULL,
    p_limit integer DEFAULT 100,
    p_round integer DEFAULT NULL,
    p_snapshot text DEFAULT NULL,
    p_known_at timestamptz DEFAULT NULL)
RETURNS TABLE (edge_id text, type text, fact text, source_id text, source_name text, target_id text,
               target_name text, valid_at timestamptz, invalid_at timestamptz, learned_at timestamptz,
               expired_at timestamptz, state text, episodes text[])
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
    v_as_of timestamptz := p_as_of;
    v_known timestamptz := p_known_at;
    v_key   uuid := pg_catalog.md5(p_node_id)::uuid;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id) WHERE p_node_id IS NULL OR p_known_at IS NOT NULL OR p_round IS NOT NULL
                                                                   OR p_snapshot IS NOT NULL;
    PERFORM memory._check_fact_state(p_state);
    IF p_round IS NOT NULL OR p_snapshot IS NOT NULL THEN
        SELECT c.as_of, c.known_at INTO v_as_of, v_known
          FROM memory._read_clock(p_tenant_id, p_simulation_id, p_as_of, p_known_at, p_round, p_snapshot) AS c;
    END IF;
    v_as_of := COALESCE(v_as_of, pg_catalog.now());
    v_known := CASE WHEN v_known < pg_catalog.now() THEN v_known END;
    IF p_node_id IS NOT NULL AND v_known IS NULL THEN
        PERFORM memory._require_row('nodes', p_tenant_id, p_simulation_id, p_node_id);
    ELSIF p_node_id IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM memory._known(NULL::memory.nodes, p_tenant_id, p_simulation_id, v_known) AS n
             WHERE n.node_key = v_key) THEN
        RAISE EXCEPTION 'unknown node % in simulation %', memory._quote(p_node_id), p_simulation_id
            USING ERRCODE = 'no_data_found', HINT = 'the node was not in the memory at that record time';
    END IF;

    -- the state is memory._fact_state's rule written out, so that the page is cut before any
    -- function is called per row (as in memory.neighbors)
    RETURN QUERY
    -- at a record time, the names as the memory held them then, read once
    WITH known_names AS MATERIALIZED (
        SELECT n.node_key, n.name
          FROM memory._known(NULL::memory.nodes, p_tenant_id, p_simulation_id, v_known) AS n
         WHERE v_known IS NOT NULL
    )
    SELECT d.edge_id, d.type, d.fact, d.source_id, s.name, d.target_id, t.name, d.valid_at, d.invalid_at,
           d.created_at, d.expired_at, f.state, d.episodes
      FROM (SELECT e.edge, e.state, e.source_key, e.target_key, e.valid_at, e.edge_id
              FROM (SELECT e.edge, e.source_key, e.target_key, e.valid_at, e.edge_id,
                           CASE WHEN e.valid_at > v_as_of THEN 'future'
                                WHEN e.invalid_at <= v_as_of THEN 'ended'
                                WHEN e.expired_at <= v_as_of THEN 'expired'
                                ELSE 'current' END AS state
                      FROM (SELECT ROW(e.*)::memory.edges AS edge, e.source_key, e.target_key, e.valid_at, e.invalid_at,
                                   e.expired_at, e.edge_id
                              FROM memory.edges AS e
                             WHERE p_node_id IS NULL AND v_known IS NULL
                               AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                            UNION ALL
                            SELECT ROW(e.*)::memory.edges, e.source_key, e.target_key, e.valid_at, e.invalid_at,
                                   e.expired_at, e.edge_id
                              FROM memory.edges AS e
                             WHERE p_node_id IS NOT NULL AND v_known IS NULL
                               AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                               AND (e.source_key = v_key OR e.target_key = v_key)
                            UNION ALL
                            SELECT ROW(e.*)::memory.edges, e.source_key, e.target_key, e.valid_at, e.invalid_at,
                                   e.expired_at, e.edge_id
                              FROM memory._known(NULL::memory.edges, p_tenant_id, p_simulation_id, v_known) AS e
                             WHERE v_known IS NOT NULL
                               AND (p_node_id IS NULL OR e.source_key = v_key OR e.target_key = v_key)) AS e) AS e
             WHERE p_state = 'all' OR e.state = p_state
                OR (p_state = 'historical' AND e.state IN ('ended', 'expired'))
             ORDER BY e.valid_at DESC NULLS LAST, e.edge_id
             LIMIT memory._page_rows(p_limit, 100)) AS f
     CROSS JOIN LATERAL memory._edge_detail(f.edge) AS d
     -- each end's name by its key, one lookup a fact whatever the generic plan's estimate of
     -- the page's size (OFFSET 0: not pulled up into a join the planner could hash over every
     -- node of the simulation)
     CROSS JOIN LATERAL (SELECT n.name FROM memory.nodes AS n
                          WHERE v_known IS NULL AND n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                            AND n.node_key = f.source_key
                         UNION ALL
                         SELECT n.name FROM known_names AS n
                          WHERE v_known IS NOT NULL AND n.node_key = f.source_key OFFSET 0) AS s
     CROSS JOIN LATERAL (SELECT n.name FROM memory.nodes AS n
                          WHERE v_known IS NULL AND n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                            AND n.node_key = f.target_key
                         UNION ALL
                         SELECT n.name FROM known_names AS n
                          WHERE v_known IS NOT NULL AND n.node_key = f.target_key OFFSET 0) AS t
     ORDER BY f.valid_at DESC NULLS LAST, f.edge_id;
END
$fn$;

COMMENT ON FUNCTION memory.facts(uuid, uuid, text, text, timestamptz, integer, integer, text, timestamptz) IS 'Facts of a simulation or a node in a state (current, historical, future, all) at a world time or round, as known at a record time or snapshot, with both ends, validity and evidence ids';
GRANT EXECUTE ON FUNCTION memory.facts(uuid, uuid, text, text, timestamptz, integer, integer, text, timestamptz) TO memory_reader;
