-- The neighbourhood of a node: every node reachable within p_depth steps (clamped to 1..20,
-- NULL means 1) along edges of the given types (NULL: all) in the given direction ('out',
-- 'in' or 'both'), each once at its least depth, with the path of node ids from the start
-- and the edge that reached it. The start node itself is not returned.
--
-- The walk is breadth-first: the recursive CTE advances one whole level per iteration and
-- carries the visited set (a jsonb object from node id to its path), so a node is expanded
-- once however many paths lead to it; cycles and self-loops end at the visited set. Paths
-- are never enumerated, so dense graphs cost what their edges cost.
CREATE OR REPLACE FUNCTION memory.neighbors(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_node_id text,
    p_depth integer DEFAULT 1,
    p_edge_types text[] DEFAULT NULL,
    p_direction text DEFAULT 'both')
RETURNS TABLE (node_id text, name text, type text, depth integer, path text[],
               edge_id text, edge_type text, fact text)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- STABLE: reads only; _require_simulation sets a transaction-local setting (the call's tenant).
DECLARE
    v_depth integer := LEAST(GREATEST(COALESCE(p_depth, 1), 1), 20);
    v_out   boolean;
    v_in    boolean;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    IF p_node_id IS NULL THEN
        RAISE EXCEPTION 'p_node_id must not be NULL'
            USING ERRCODE = 'null_value_not_allowed', HINT = 'pass the upstream id of the start node';
    END IF;
    IF p_direction IS NULL THEN
        RAISE EXCEPTION 'p_direction must not be NULL'
            USING ERRCODE = 'null_value_not_allowed', HINT = 'pass ''out'', ''in'' or ''both''';
    END IF;
    IF p_direction NOT IN ('out', 'in', 'both') THEN
        RAISE EXCEPTION 'unknown direction %', pg_catalog.quote_literal(p_direction)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass ''out'', ''in'' or ''both''';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM memory.nodes AS n
                    WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                      AND n.node_key = pg_catalog.md5(p_node_id)::uuid) THEN
        RAISE EXCEPTION 'unknown node % in simulation %', p_node_id, p_simulation_id
            USING ERRCODE = 'no_data_found', HINT = 'list the simulation''s nodes with memory.nodes_by_type()';
    END IF;
    v_out := p_direction IN ('out', 'both');
    v_in := p_direction IN ('in', 'both');

    RETURN QUERY
    WITH RECURSIVE walk (level, frontier, visited, found) AS (
        SELECT 0,
               ARRAY[pg_catalog.md5(p_node_id)::uuid],
               pg_catalog.jsonb_build_object(p_node_id, pg_catalog.jsonb_build_array(p_node_id)),
               '[]'::jsonb
        UNION ALL
        SELECT w.level + 1, step.nodes, w.visited || step.paths, step.found
          FROM walk AS w
          CROSS JOIN LATERAL (
              SELECT pg_catalog.array_agg(pg_catalog.md5(c.next_id)::uuid) AS nodes,
                     pg_catalog.jsonb_object_agg(c.next_id, c.path) AS paths,
                     pg_catalog.jsonb_agg(pg_catalog.jsonb_build_array(c.next_id, c.path, c.edge_id,
                                                                       c.edge_type, c.fact)) AS found
                FROM (SELECT d.next_id,
                             -- the path is built for the chosen edge only, not every candidate
                             (w.visited -> d.from_id) || pg_catalog.to_jsonb(d.next_id) AS path,
                             d.edge_id, d.edge_type, d.fact
                FROM (SELECT DISTINCT ON (x.next_id)
                             x.next_id, x.from_id,
                             x.edge_id, x.edge_type, x.fact
                        FROM (SELECT e.target_id AS next_id, e.source_id AS from_id, e.edge_id,
                                     e.type AS edge_type, e.fact
                                FROM memory.edges AS e
                               WHERE v_out
                                 AND e.tenant_id = p_tenant_id
                                 AND e.simulation_id = p_simulation_id
                                 AND e.source_key = ANY (w.frontier)
                                 AND (p_edge_types IS NULL OR e.type = ANY (p_edge_types))
                              UNION ALL
                              SELECT e.source_id, e.target_id, e.edge_id, e.type, e.fact
                                FROM memory.edges AS e
                               WHERE v_in
                                 AND e.tenant_id = p_tenant_id
                                 AND e.simulation_id = p_simulation_id
                                 AND e.target_key = ANY (w.frontier)
                                 AND (p_edge_types IS NULL OR e.type = ANY (p_edge_types))) AS x
                       WHERE NOT (w.visited ? x.next_id)
                       ORDER BY x.next_id, x.from_id, x.edge_id) AS d) AS c
          ) AS step
         WHERE w.level < v_depth
           AND step.nodes IS NOT NULL
    )
    SELECT f.item ->> 0,
           n.name,
           n.type,
           w.level,
           ARRAY(SELECT pg_catalog.jsonb_array_elements_text(f.item -> 1)),
           f.item ->> 2,
           f.item ->> 3,
           f.item ->> 4
      FROM walk AS w
     CROSS JOIN LATERAL pg_catalog.jsonb_array_elements(w.found) AS f(item)
      JOIN memory.nodes AS n
        ON n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
       AND n.node_key = pg_catalog.md5(f.item ->> 0)::uuid
     WHERE w.level > 0
     ORDER BY w.level, f.item ->> 0;
END
$fn$;

COMMENT ON FUNCTION memory.neighbors(uuid, uuid, text, integer, text[], text) IS
    'Breadth-first neighbourhood of a node: each node once at its least depth (1..20), with path and edge';
REVOKE ALL ON FUNCTION memory.neighbors(uuid, uuid, text, integer, text[], text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.neighbors(uuid, uuid, text, integer, text[], text) TO memory_reader;
