-- The neighbourhood of a node: every node reachable within p_depth steps (clamped to 1..20,
-- NULL means 1) along edges of the given types (NULL: all) in the given direction ('out',
-- 'in' or 'both'), each once at its least depth, with the path of node ids from the start
-- and the edge that reached it, its validity and its state at p_as_of. The start node
-- itself is not returned. p_edge_types holds at most memory._limit('list_elements') types
-- (54000). p_limit (NULL: no bound; below 1 counts as 1) bounds the rows as p_depth bounds
-- the levels: the walk stops after the level at which it has found p_limit nodes and
-- returns the first p_limit rows of the unbounded walk's order (depth, then node id), so a
-- bounded walk is a prefix of the unbounded one and costs at most one level beyond it. The
-- rows are cut to p_limit before any is built: the ids (which the order needs) are read
-- for every node found, with the edges that reached them, and names and paths only for the
-- nodes returned.
--
-- Two clocks. p_as_of (world time, NULL: now; infinity: the latest state) picks the facts
-- the walk follows: those current then (memory._fact_state), unless p_include_ended, which
-- follows every edge and, where several reach a node at one depth, lets a current one win.
-- p_known_at (record time, NULL: now) walks the graph as the memory held it then
-- (memory._known over memory.row_history): the same statement, its edges and nodes read
-- from the versions of that moment instead of the tables' current rows. p_round (the
-- simulation's own clock) stands for p_as_of: the moment the round ended; p_snapshot (a
-- name from memory.create_snapshot) for p_known_at: its record time, and its round
-- (memory._read_clock).
--
-- The plan is generic, made once a session and cached (force_generic_plan): the branch of
-- the clock that does not apply is a one-time filter that never runs, and the joins are
-- hash joins whatever the estimates. A custom plan per call cost more than a small walk
-- itself (bench/README.md).
--
-- One statement in four steps, each a set operation (no per-row probing):
--   walk   the recursive CTE, breadth-first over keys only: one whole level per iteration,
--          edges read by index-only scans of the covering indexes edges_out_idx and
--          edges_in_idx (the frontier as one array), nodes already visited dropped by a hash
--          anti-join against the visited keys the walk carries, and for each new node one
--          edge from the level before: the least edge key, so a shortest path, the same on
--          every call. Paths are never enumerated: cycles end at the visited set, and a dense
--          graph costs what its edges cost. The ids are text of any length, which no index
--          holds: the walk never reads them.
--   reached the edges that reached the nodes found, by one scan of the primary key for all
--          their keys: each edge and the id of the node at its far end, then the cut.
--   named  the nodes returned, fetched by one scan of the primary key for all their keys.
--   paths  each node's path: its parent's path and its own id, one level per iteration.
-- enable_nestloop = off: the CTEs join by hash; a nested loop over a CTE the planner
-- guessed small would be quadratic in the size of the neighbourhood.
CREATE OR REPLACE FUNCTION memory.neighbors(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_node_id text,
    p_depth integer DEFAULT 1,
    p_edge_types text[] DEFAULT NULL,
    p_direction text DEFAULT 'both',
    p_as_of timestamptz DEFAULT NULL,
    p_known_at timestamptz DEFAULT NULL,
    p_include_ended boolean DEFAULT false,
    p_limit integer DEFAULT NULL,
    p_round integer DEFAULT NULL,
    p_snapshot text DEFAULT NULL)
RETURNS TABLE (node_id text, name text, type text, depth integer, path text[],
               edge_id text, edge_type text, fact text, valid_at timestamptz, invalid_at timestamptz,
               state text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_generic_plan
SET enable_nestloop = off
AS $fn$
DECLARE
    v_depth  integer := LEAST(GREATEST(COALESCE(p_depth, 1), 1), 20);
    v_start  uuid := pg_catalog.md5(p_node_id)::uuid;
    v_out    boolean;
    v_in     boolean;
    v_as_of  timestamptz;
    v_known  timestamptz;
    v_all    boolean := COALESCE(p_include_ended, false);
    v_limit  integer := CASE WHEN p_limit IS NOT NULL THEN GREATEST(p_limit, 1) END;
BEGIN
    SELECT w.as_of, w.known_at, w.go_out, w.go_in INTO v_as_of, v_known, v_out, v_in
      FROM memory._walk_start(p_tenant_id, p_simulation_id, p_node_id, p_edge_types, p_direction,
                              p_as_of, p_known_at, p_round, p_snapshot) AS w;

    RETURN QUERY
    WITH RECURSIVE
    -- the edges the walk may follow, now or as known at v_known, with whether each is current
    edges_at AS NOT MATERIALIZED (
        SELECT e.edge_key, e.source_key, e.target_key, e.type, e.valid_at, e.invalid_at, e.expired_at
          FROM memory.edges AS e
         WHERE v_known IS NULL AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
        UNION ALL
        SELECT e.edge_key, e.source_key, e.target_key, e.type, e.valid_at, e.invalid_at, e.expired_at
          FROM memory._known(NULL::memory.edges, p_tenant_id, p_simulation_id, v_known) AS e
         WHERE v_known IS NOT NULL
    ),
    walk (level, found, parents, edges, visited) AS (
        SELECT 0, ARRAY[v_start], NULL::uuid[], NULL::uuid[], ARRAY[v_start]
        UNION ALL
        SELECT w.level + 1, step.found, step.parents, step.edges, w.visited || step.found
          FROM walk AS w
          CROSS JOIN LATERAL (
              SELECT pg_catalog.array_agg(d.next_key) AS found,
                     pg_catalog.array_agg(d.pick[3]) AS parents,
                     pg_catalog.array_agg(d.pick[2]) AS edges
                FROM (SELECT x.next_key,
                             -- one edge per new node: a current one before any other, then
                             -- the least edge key (then parent key); the first element ranks
                             pg_catalog.min(ARRAY[x.rank, x.edge_key, x.from_key]) AS pick
                        FROM (SELECT e.target_key AS next_key, e.source_key AS from_key, e.edge_key,
                                     e.valid_at, e.invalid_at, e.expired_at
                                FROM edges_at AS e
                               WHERE v_out
                                 AND e.source_key = ANY (w.found)
                                 AND (p_edge_types IS NULL OR e.type = ANY (p_edge_types))
                              UNION ALL
                              SELECT e.source_key, e.target_key, e.edge_key,
                                     e.valid_at, e.invalid_at, e.expired_at
                                FROM edges_at AS e
                               WHERE v_in
                                 AND e.target_key = ANY (w.found)
                                 AND (p_edge_types IS NULL OR e.type = ANY (p_edge_types))) AS y
                       CROSS JOIN LATERAL (
                             SELECT y.next_key, y.from_key, y.edge_key,
                                    CASE WHEN (y.valid_at IS NULL OR y.valid_at <= v_as_of)
                                               AND (y.invalid_at IS NULL OR y.invalid_at > v_as_of)
                                               AND (y.expired_at IS NULL OR y.expired_at > v_as_of)
                                         THEN '00000000-0000-0000-0000-000000000000'::uuid
                                         ELSE 'ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid END AS rank) AS x
                       WHERE (v_all OR x.rank = '00000000-0000-0000-0000-000000000000'::uuid)
                         AND NOT EXISTS (SELECT FROM pg_catalog.unnest(w.visited) AS v(node_key)
                                          WHERE v.node_key = x.next_key)
                       GROUP BY x.next_key) AS d
          ) AS step
         WHERE w.level < v_depth
           -- the visited set holds the start: p_limit nodes found means one more
           AND (v_limit IS NULL OR pg_catalog.cardinality(w.visited) <= v_limit)
           AND step.found IS NOT NULL
    ),
    -- every node found, by keys
    found AS MATERIALIZED (
        SELECT w.level, f.node_key, f.parent_key, f.edge_key
          FROM walk AS w
         CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(w.found), pg_catalog.unnest(w.parents),
                                       pg_catalog.unnest(w.edges)) AS f(node_key, parent_key, edge_key)
         WHERE w.level > 0
    ),
    -- the edges that reached them, by one scan of the primary key for all their keys: each
    -- node's id is the id at the edge's far end
    reached AS MATERIALIZED (
        SELECT e.edge_key, e.edge_id, e.source_id, e.target_key, e.target_id, e.type, e.fact,
               e.valid_at, e.invalid_at, e.expired_at
          FROM (SELECT e.edge_key, e.edge_id, e.source_id, e.target_key, e.target_id, e.type, e.fact,
                       e.valid_at, e.invalid_at, e.expired_at
                  FROM memory.edges AS e
                 WHERE v_known IS NULL AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                UNION ALL
                SELECT e.edge_key, e.edge_id, e.source_id, e.target_key, e.target_id, e.type, e.fact,
                       e.valid_at, e.invalid_at, e.expired_at
                  FROM memory._known(NULL::memory.edges, p_tenant_id, p_simulation_id, v_known) AS e
                 WHERE v_known IS NOT NULL) AS e
         WHERE e.edge_key = ANY ((SELECT pg_catalog.array_agg(f.edge_key)
                                    FROM found AS f)::uuid[])
    ),
    -- the rows returned, cut to p_limit before any is built (earlier levels are whole: the
    -- walk stopped at the level where it found p_limit nodes, so every parent is kept)
    cut AS MATERIALIZED (
        SELECT f.level, f.node_key, f.parent_key, f.edge_key,
               CASE WHEN e.target_key = f.node_key THEN e.target_id ELSE e.source_id END AS node_ref
          FROM found AS f
          JOIN reached AS e ON e.edge_key = f.edge_key
         ORDER BY 1, 5
         LIMIT v_limit
    ),
    -- the nodes returned, by one scan of the primary key for all their keys
    named AS MATERIALIZED (
        SELECT f.level, f.node_key, f.parent_key, f.edge_key, f.node_ref, n.name, n.type
          FROM cut AS f
          JOIN (SELECT n.node_key, n.name, n.type FROM memory.nodes AS n
                 WHERE v_known IS NULL AND n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                UNION ALL
                SELECT n.node_key, n.name, n.type
                  FROM memory._known(NULL::memory.nodes, p_tenant_id, p_simulation_id, v_known) AS n
                 WHERE v_known IS NOT NULL) AS n ON n.node_key = f.node_key
         WHERE n.node_key = ANY ((SELECT pg_catalog.array_agg(f.node_key) FROM cut AS f)::uuid[])
    ),
    -- each path is its parent's path and the node's id, one level per iteration
    paths (level, node_key, path, node_id, name, type, edge_key) AS (
        SELECT 0, v_start, ARRAY[p_node_id], NULL::text, NULL::text, NULL::text, NULL::uuid
        UNION ALL
        SELECT f.level, f.node_key, p.path || f.node_ref, f.node_ref, f.name, f.type, f.edge_key
          FROM paths AS p
          JOIN named AS f ON f.level = p.level + 1 AND f.parent_key = p.node_key
    )
    -- the state is memory._fact_state's rule written out (a call per row, whose pinned
    -- search_path keeps it from being inlined, cost more than the walk);
    -- sql/tests/023_time.sql holds the two to the same answers
    SELECT p.node_id, p.name, p.type, p.level, p.path, e.edge_id, e.type, e.fact, e.valid_at, e.invalid_at,
           CASE WHEN e.valid_at > v_as_of THEN 'future'
                WHEN e.invalid_at <= v_as_of THEN 'ended'
                WHEN e.expired_at <= v_as_of THEN 'expired'
                ELSE 'current' END
      FROM paths AS p
      JOIN reached AS e ON e.edge_key = p.edge_key
     WHERE p.level > 0
     ORDER BY p.level, p.node_id
     LIMIT v_limit;
END
$fn$;

COMMENT ON FUNCTION memory.neighbors(uuid, uuid, text, integer, text[], text, timestamptz, timestamptz, boolean, integer, integer, text) IS 'Breadth-first neighbourhood of a node along the facts current at a world time, as the memory held them at a record time (or at a round, in a snapshot): each node once at its least depth (1..20), at most p_limit nodes (nearest first), with path, edge and its state';
GRANT EXECUTE ON FUNCTION memory.neighbors(uuid, uuid, text, integer, text[], text, timestamptz, timestamptz, boolean, integer, integer, text) TO memory_reader;
