-- Enter a simulation for a keyset page of its nodes or edges (memory.graph_nodes,
-- memory.graph_edges): memory._require_simulation's checks, then a non-NULL p_after must be
-- the id of one of its nodes or edges, refused with P0002 by memory._require_row (its
-- message names the id and the simulation).
CREATE OR REPLACE FUNCTION memory._enter_page(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_after text)
RETURNS void
LANGUAGE sql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id) WHERE p_after IS NULL;
    SELECT memory._require_row(p_kind, p_tenant_id, p_simulation_id, p_after) WHERE p_after IS NOT NULL;
$fn$;

COMMENT ON FUNCTION memory._enter_page(text, uuid, uuid, text) IS 'Internal: enter a simulation for a page of its nodes or edges after p_after (P0002 when unknown)';
GRANT EXECUTE ON FUNCTION memory._enter_page(text, uuid, uuid, text) TO memory_reader;
