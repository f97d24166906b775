-- The neighbourhood of a node: every node reachable within p_depth steps (clamped to 1..20,
-- NULL means 1) along edges of the given types (NULL: all) in the given direction ('out',
-- 'in' or 'both'), each once at its least depth, with the path of node ids from the start
-- and the edge that reached it. The start node itself is not returned. p_edge_types holds
-- at most memory._limit('list_elements') types (54000).
--
-- One statement in four steps, each a set operation (no per-row probing):
--   walk   the recursive CTE, breadth-first over keys only: one whole level per iteration,
--          edges read by index-only scans of the covering indexes edges_out_idx and
--          edges_in_idx (the frontier as one array), nodes already visited dropped by a hash
--          anti-join against the visited keys the walk carries, and for each new node one
--          edge from the level before: the least edge key, so a shortest path, the same on
--          every call. Paths are never enumerated: cycles end at the visited set, and a dense
--          graph costs what its edges cost.
--   named  the nodes found, fetched by one scan of the primary key for all their keys.
--   paths  each node's path: its parent's path and its own id, one level per iteration.
--   reached the edges that reached them, by one scan of the primary key.
-- enable_nestloop = off: the CTEs join by hash; a nested loop over a CTE the planner
-- guessed small would be quadratic in the size of the neighbourhood.
CREATE OR REPLACE FUNCTION memory.neighbors(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_node_id text,
    p_depth integer DEFAULT 1,
    p_edge_types text[] DEFAULT NULL,
    p_direction text DEFAULT 'both')
RETURNS TABLE (node_id text, name text, type text, depth integer, path text[],
               edge_id text, edge_type text, fact text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_custom_plan
SET enable_nestloop = off
AS $fn$
DECLARE
    v_depth  integer := LEAST(GREATEST(COALESCE(p_depth, 1), 1), 20);
    v_start  uuid := pg_catalog.md5(p_node_id)::uuid;
    v_out    boolean;
    v_in     boolean;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_limit('list_elements', 'p_edge_types', pg_catalog.cardinality(p_edge_types));
    PERFORM memory._not_null(p_node_id, 'p_node_id', 'pass the upstream id of the start node');
    PERFORM memory._not_null(p_direction, 'p_direction', 'pass ''out'', ''in'' or ''both''');
    IF p_direction NOT IN ('out', 'in', 'both') THEN
        RAISE EXCEPTION 'unknown direction %', pg_catalog.quote_literal(memory._quote(p_direction))
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass ''out'', ''in'' or ''both''';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM memory.nodes AS n
                    WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                      AND n.node_key = v_start) THEN
        RAISE EXCEPTION 'unknown node % in simulation %', memory._quote(p_node_id), p_simulation_id
            USING ERRCODE = 'no_data_found', HINT = 'list the simulation''s nodes with memory.nodes_by_type()';
    END IF;
    v_out := p_direction IN ('out', 'both');
    v_in := p_direction IN ('in', 'both');

    RETURN QUERY
    WITH RECURSIVE walk (level, found, parents, edges, visited) AS (
        SELECT 0, ARRAY[v_start], NULL::uuid[], NULL::uuid[], ARRAY[v_start]
        UNION ALL
        SELECT w.level + 1, step.found, step.parents, step.edges, w.visited || step.found
          FROM walk AS w
          CROSS JOIN LATERAL (
              SELECT pg_catalog.array_agg(d.next_key) AS found,
                     pg_catalog.array_agg(d.pick[2]) AS parents,
                     pg_catalog.array_agg(d.pick[1]) AS edges
                FROM (SELECT x.next_key,
                             -- one edge per new node: the least edge key (then parent key)
                             pg_catalog.min(ARRAY[x.edge_key, x.from_key]) AS pick
                        FROM (SELECT e.target_key AS next_key, e.source_key AS from_key, e.edge_key
                                FROM memory.edges AS e
                               WHERE v_out
                                 AND e.tenant_id = p_tenant_id
                                 AND e.simulation_id = p_simulation_id
                                 AND e.source_key = ANY (w.found)
                                 AND (p_edge_types IS NULL OR e.type = ANY (p_edge_types))
                              UNION ALL
                              SELECT e.source_key, e.target_key, e.edge_key
                                FROM memory.edges AS e
                               WHERE v_in
                                 AND e.tenant_id = p_tenant_id
                                 AND e.simulation_id = p_simulation_id
                                 AND e.target_key = ANY (w.found)
                                 AND (p_edge_types IS NULL OR e.type = ANY (p_edge_types))) AS x
                       WHERE NOT EXISTS (SELECT FROM pg_catalog.unnest(w.visited) AS v(node_key)
                                          WHERE v.node_key = x.next_key)
                       GROUP BY x.next_key) AS d
          ) AS step
         WHERE w.level < v_depth
           AND step.found IS NOT NULL
    ),
    found AS MATERIALIZED (
        SELECT w.level, f.node_key, f.parent_key, f.edge_key
          FROM walk AS w
         CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(w.found), pg_catalog.unnest(w.parents),
                                       pg_catalog.unnest(w.edges)) AS f(node_key, parent_key, edge_key)
         WHERE w.level > 0
    ),
    -- the nodes found, by one scan of the primary key (all their keys: the last visited set)
    named AS MATERIALIZED (
        SELECT f.level, f.node_key, f.parent_key, f.edge_key, n.node_id, n.name, n.type
          FROM found AS f
          JOIN memory.nodes AS n ON n.node_key = f.node_key
         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
           AND n.node_key = ANY ((SELECT w.visited FROM walk AS w
                                   ORDER BY w.level DESC LIMIT 1)::uuid[])
    ),
    -- each path is its parent's path and the node's id, one level per iteration
    paths (level, node_key, path, node_id, name, type, edge_key) AS (
        SELECT 0, v_start, ARRAY[p_node_id], NULL::text, NULL::text, NULL::text, NULL::uuid
        UNION ALL
        SELECT f.level, f.node_key, p.path || f.node_id, f.node_id, f.name, f.type, f.edge_key
          FROM paths AS p
          JOIN named AS f ON f.level = p.level + 1 AND f.parent_key = p.node_key
    ),
    -- the edges that reached them, likewise by one scan of the primary key
    reached AS MATERIALIZED (
        SELECT e.edge_key, e.edge_id, e.type, e.fact
          FROM memory.edges AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND e.edge_key = ANY ((SELECT pg_catalog.array_agg(f.edge_key)
                                    FROM found AS f)::uuid[])
    )
    SELECT p.node_id, p.name, p.type, p.level, p.path, e.edge_id, e.type, e.fact
      FROM paths AS p
      JOIN reached AS e ON e.edge_key = p.edge_key
     WHERE p.level > 0
     ORDER BY p.level, p.node_id;
END
$fn$;

COMMENT ON FUNCTION memory.neighbors(uuid, uuid, text, integer, text[], text) IS 'Breadth-first neighbourhood of a node: each node once at its least depth (1..20), with path and edge';
REVOKE ALL ON FUNCTION memory.neighbors(uuid, uuid, text, integer, text[], text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.neighbors(uuid, uuid, text, integer, text[], text) TO memory_reader;
