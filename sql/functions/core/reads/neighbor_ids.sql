-- The neighbourhood of a node, lean: what memory.neighbors answers with the same arguments,
-- cut to the node's id, its depth and the id of the edge that reached it (the same edge),
-- in the same order (depth, then node id) and under the same p_limit. No name, fact, path
-- or state is built. The walk runs over keys only: each level is one index-only scan of
-- each direction of the walk's covering indexes (edges_out_idx, edges_in_idx) for the whole
-- frontier, a hash anti-join against the visited keys and one aggregate that picks each new
-- node's edge. The ids are text of any length, which no btree index can hold, so they come
-- last: one scan of the edges' primary key for the edges picked gives each edge's id and
-- the id of the node at its far end, and only then are the rows ordered and cut (the
-- order is by id, so the last level is read whole, as neighbors reads it). For callers that
-- walk often and need no more than the graph's shape (what an embedded graph database
-- answers), or that fetch the rows of a few of the nodes afterwards.
--
-- The edge picked is memory.neighbors' rule: a current one before any other (at p_as_of;
-- p_include_ended follows ended ones too), then the least edge key. p_known_at walks the
-- graph as the memory held it then, and p_round and p_snapshot stand for the two clocks,
-- as in memory.neighbors.
--
-- The plan is generic, made once a session and cached, as memory.neighbors' is (planning
-- costs more than a small walk); enable_nestloop = off keeps the joins hash joins.
CREATE OR REPLACE FUNCTION memory.neighbor_ids(
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
RETURNS TABLE (node_id text, depth integer, edge_id text)
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
    -- the edges the walk may follow, now or as known at v_known: keys, type and times, all
    -- in the covering indexes
    edges_at AS NOT MATERIALIZED (
        SELECT e.edge_key, e.source_key, e.target_key, e.type, e.valid_at, e.invalid_at, e.expired_at
          FROM memory.edges AS e
         WHERE v_known IS NULL AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
        UNION ALL
        SELECT e.edge_key, e.source_key, e.target_key, e.type, e.valid_at, e.invalid_at, e.expired_at
          FROM memory._known(NULL::memory.edges, p_tenant_id, p_simulation_id, v_known) AS e
         WHERE v_known IS NOT NULL
    ),
    walk (level, found, edges, visited) AS (
        SELECT 0, ARRAY[v_start], NULL::uuid[], ARRAY[v_start]
        UNION ALL
        SELECT w.level + 1, step.found, step.edges, w.visited || step.found
          FROM walk AS w
          CROSS JOIN LATERAL (
              SELECT pg_catalog.array_agg(d.next_key) AS found,
                     pg_catalog.array_agg(d.pick[2]) AS edges
                FROM (SELECT x.next_key,
                             -- a current edge before any other, then the least edge key
                             pg_catalog.min(ARRAY[x.rank, x.edge_key]) AS pick
                        FROM (SELECT e.target_key AS next_key, e.edge_key,
                                     e.valid_at, e.invalid_at, e.expired_at
                                FROM edges_at AS e
                               WHERE v_out
                                 AND e.source_key = ANY (w.found)
                                 AND (p_edge_types IS NULL OR e.type = ANY (p_edge_types))
                              UNION ALL
                              SELECT e.source_key, e.edge_key,
                                     e.valid_at, e.invalid_at, e.expired_at
                                FROM edges_at AS e
                               WHERE v_in
                                 AND e.target_key = ANY (w.found)
                                 AND (p_edge_types IS NULL OR e.type = ANY (p_edge_types))) AS y
                       CROSS JOIN LATERAL (
                             SELECT y.next_key, y.edge_key,
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
    found AS MATERIALIZED (
        SELECT w.level, f.node_key, f.edge_key
          FROM walk AS w
         CROSS JOIN LATERAL ROWS FROM (pg_catalog.unnest(w.found), pg_catalog.unnest(w.edges)) AS f(node_key, edge_key)
         WHERE w.level > 0
    )
    -- the ids of the edges picked and of the nodes at their far ends, by one scan of the
    -- edges' primary key for all their keys; then the order and the cut
    SELECT r.node_ref, r.level, r.edge_ref
      FROM (SELECT f.level, e.edge_id AS edge_ref,
                   CASE WHEN e.target_key = f.node_key THEN e.target_id ELSE e.source_id END AS node_ref
              FROM found AS f
              JOIN (SELECT e.edge_key, e.edge_id, e.source_id, e.target_key, e.target_id
                      FROM memory.edges AS e
                     WHERE v_known IS NULL AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                    UNION ALL
                    SELECT e.edge_key, e.edge_id, e.source_id, e.target_key, e.target_id
                      FROM memory._known(NULL::memory.edges, p_tenant_id, p_simulation_id, v_known) AS e
                     WHERE v_known IS NOT NULL) AS e ON e.edge_key = f.edge_key
             WHERE e.edge_key = ANY ((SELECT pg_catalog.array_agg(f.edge_key) FROM found AS f)::uuid[])) AS r
     ORDER BY r.level, r.node_ref
     LIMIT v_limit;
END
$fn$;

COMMENT ON FUNCTION memory.neighbor_ids(uuid, uuid, text, integer, text[], text, timestamptz, timestamptz, boolean, integer, integer, text) IS 'The nodes memory.neighbors reaches, lean: each node''s id, its least depth and the id of the edge that reached it, walked over keys, the ids read for the nodes found';
GRANT EXECUTE ON FUNCTION memory.neighbor_ids(uuid, uuid, text, integer, text[], text, timestamptz, timestamptz, boolean, integer, integer, text) TO memory_reader;
