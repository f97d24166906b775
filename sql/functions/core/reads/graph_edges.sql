-- Every relationship of a simulation with every field memory.get_edge gives (both read an
-- edge through memory._edge_detail, so the two never differ), ordered by id (byte order), a
-- page at a time: p_limit rows (clamped to 1..1000, NULL means 1000) after the edge p_after
-- (the last edge_id of the previous page; NULL: from the start). An unknown p_after is
-- P0002. What an export reads to write the graph back whole.
CREATE OR REPLACE FUNCTION memory.graph_edges(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_limit integer DEFAULT 1000,
    p_after text DEFAULT NULL)
RETURNS SETOF memory.edge_detail
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._enter_page('edges', p_tenant_id, p_simulation_id, p_after);  -- P0002 for an unknown p_after
    RETURN QUERY SELECT d.*
      FROM (SELECT ROW(e.*)::memory.edges AS e FROM memory.edges AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND (p_after IS NULL OR e.edge_id COLLATE "C" > p_after COLLATE "C")
             ORDER BY e.edge_id COLLATE "C"
             LIMIT memory._page_rows(p_limit, 1000)) AS page
     CROSS JOIN LATERAL memory._edge_detail(page.e) AS d
     ORDER BY d.edge_id COLLATE "C";
END
$fn$;

COMMENT ON FUNCTION memory.graph_edges(uuid, uuid, integer, text) IS 'Every edge of a simulation with every field MiroFish sends, ordered by id, a page at a time (keyset after the last id; limit clamped to 1..1000)';
GRANT EXECUTE ON FUNCTION memory.graph_edges(uuid, uuid, integer, text) TO memory_reader;
