-- The links that count (memory._link_active) between two simulations, oriented from p_run_a
-- to p_run_b, one entity a side (the best score wins, ties by id): how memory.diff maps
-- one run's entities onto the other's. The caller has entered the tenant.
CREATE OR REPLACE FUNCTION memory._identity_map(p_tenant_id uuid, p_run_a uuid, p_run_b uuid)
RETURNS TABLE (node_a text, node_b text, score real)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT m.node_a, m.node_b, m.score
      FROM (SELECT x.*,
                   pg_catalog.row_number() OVER (PARTITION BY x.node_a ORDER BY x.score DESC, x.node_b) AS rank_a,
                   pg_catalog.row_number() OVER (PARTITION BY x.node_b ORDER BY x.score DESC, x.node_a) AS rank_b
              FROM (SELECT CASE WHEN l.simulation_a = p_run_a THEN l.node_a ELSE l.node_b END AS node_a,
                           CASE WHEN l.simulation_a = p_run_a THEN l.node_b ELSE l.node_a END AS node_b,
                           CASE WHEN l.decision IN ('confirmed', 'manual') THEN 1::real ELSE l.score END AS score
                      FROM memory.identity_links AS l
                     WHERE l.tenant_id = p_tenant_id
                       AND l.simulation_a = LEAST(p_run_a, p_run_b) AND l.simulation_b = GREATEST(p_run_a, p_run_b)
                       AND memory._link_active(l.decision, l.current)) AS x) AS m
     WHERE m.rank_a = 1 AND m.rank_b = 1
$fn$;

COMMENT ON FUNCTION memory._identity_map(uuid, uuid, uuid) IS 'Internal: the counting links between two simulations, oriented and one a side';
GRANT EXECUTE ON FUNCTION memory._identity_map(uuid, uuid, uuid) TO memory_reader;
