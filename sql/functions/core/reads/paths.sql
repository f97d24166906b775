-- The shortest chains of current facts between two entities (the report agent's
-- relationship chains), at most 10, each with its nodes, their names, its edges and their
-- facts, in either direction along each edge; none when they are not connected within
-- p_max_depth steps (clamped to 1..6, NULL: 4). Two walks (memory.neighbors from each end)
-- give every node's distance from both; the nodes on a shortest path are those whose two
-- distances add up to the shortest length, and the chains are read along the edges between
-- consecutive layers of them, deterministically (by node and edge id). Unknown node: P0002.
CREATE OR REPLACE FUNCTION memory.paths(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_from text,
    p_to text,
    p_max_depth integer DEFAULT 4)
RETURNS TABLE (path_no integer, length integer, node_ids text[], names text[], edge_ids text[], facts text[])
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
SET enable_nestloop = off
AS $fn$
DECLARE
    v_depth  integer := LEAST(GREATEST(COALESCE(p_max_depth, 4), 1), 6);
    v_now    timestamptz := pg_catalog.now();
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._not_null(p_to, 'p_to', 'pass the upstream id of the other entity');
    IF p_from = p_to THEN
        RAISE EXCEPTION 'p_from and p_to are the same entity %', memory._quote(p_from)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass two different entities';
    END IF;
    RETURN QUERY
    WITH RECURSIVE d_from AS MATERIALIZED (
        SELECT p_from AS node_id, 0 AS depth
        UNION ALL SELECT n.node_id, n.depth FROM memory.neighbors(p_tenant_id, p_simulation_id, p_from, v_depth) AS n
    ), d_to AS MATERIALIZED (
        SELECT p_to AS node_id, 0 AS depth
        UNION ALL SELECT n.node_id, n.depth FROM memory.neighbors(p_tenant_id, p_simulation_id, p_to, v_depth) AS n
    ), both_ways AS MATERIALIZED (
        SELECT f.node_id, f.depth AS d_from, t.depth AS d_to, f.depth + t.depth AS total
          FROM d_from AS f JOIN d_to AS t ON t.node_id = f.node_id
    ), on_path AS MATERIALIZED (
        SELECT b.node_id, b.d_from, pg_catalog.md5(b.node_id)::uuid AS node_key
          FROM both_ways AS b
         WHERE b.total = (SELECT pg_catalog.min(x.total) FROM both_ways AS x)
           AND b.total <= v_depth
    ), steps AS MATERIALIZED (
        -- the current facts between consecutive layers, either way along the edge
        SELECT a.node_id AS from_id, b.node_id AS to_id, b.d_from, e.edge_id, e.fact
          FROM on_path AS a
          JOIN on_path AS b ON b.d_from = a.d_from + 1
          JOIN memory.edges AS e
            ON e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND ((e.source_key = a.node_key AND e.target_key = b.node_key)
             OR (e.source_key = b.node_key AND e.target_key = a.node_key))
         WHERE (e.valid_at IS NULL OR e.valid_at <= v_now) AND (e.invalid_at IS NULL OR e.invalid_at > v_now)
           AND (e.expired_at IS NULL OR e.expired_at > v_now)
    ), chains (node_ids, edge_ids, facts, last_id, depth) AS (
        -- a depth a step of the recursion, each keeping only the chains that can still be
        -- among the first 10 (by nodes, then edges): those of the 10 first node sequences,
        -- and of each node sequence its 10 first edge sequences. Every chain reaches p_to
        -- (each node of a layer has a neighbour in the next), so a chain behind 10 others
        -- of smaller node sequences, or of its own and smaller edges, ends behind 10 whole
        -- chains. (Before, every shortest chain was listed and 10 kept: the product of the
        -- layers' widths, 10^6 chains at six layers of ten.)
        SELECT ARRAY[p_from], ARRAY[]::text[], ARRAY[]::text[], p_from, 0
        UNION ALL
        SELECT x.node_ids, x.edge_ids, x.facts, x.last_id, x.depth
          FROM (SELECT c.node_ids || s.to_id AS node_ids, c.edge_ids || s.edge_id AS edge_ids,
                       c.facts || s.fact AS facts, s.to_id AS last_id, c.depth + 1 AS depth,
                       pg_catalog.dense_rank() OVER (ORDER BY c.node_ids || s.to_id) AS by_nodes,
                       pg_catalog.row_number() OVER (PARTITION BY c.node_ids || s.to_id
                                                     ORDER BY c.edge_ids || s.edge_id) AS by_edges
                  FROM chains AS c JOIN steps AS s ON s.from_id = c.last_id AND s.d_from = c.depth + 1) AS x
         WHERE x.by_nodes <= 10 AND x.by_edges <= 10
    ), found AS (
        SELECT c.node_ids, c.edge_ids, c.facts FROM chains AS c WHERE c.last_id = p_to
         ORDER BY c.node_ids, c.edge_ids LIMIT 10
    )
    SELECT (pg_catalog.row_number() OVER (ORDER BY f.node_ids, f.edge_ids))::integer,
           pg_catalog.cardinality(f.edge_ids), f.node_ids,
           ARRAY(SELECT n.name FROM pg_catalog.unnest(f.node_ids) WITH ORDINALITY AS u(node_id, ord)
                   JOIN memory.nodes AS n ON n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                    AND n.node_key = pg_catalog.md5(u.node_id)::uuid
                  ORDER BY u.ord),
           f.edge_ids, f.facts
      FROM found AS f
     ORDER BY 1;
END
$fn$;

COMMENT ON FUNCTION memory.paths(uuid, uuid, text, text, integer) IS 'The shortest chains of current facts between two entities (at most 10), with their nodes, names, edges and facts';
GRANT EXECUTE ON FUNCTION memory.paths(uuid, uuid, text, text, integer) TO memory_reader;
