-- Delete a simulation and everything in it; returns how many rows of each kind went.
-- An unknown simulation (or another tenant's) is P0002.
-- SECURITY DEFINER because writers hold no DELETE on the tables (with it they could LOCK
-- them in modes that stop every tenant); memory._require_simulation enters the tenant
-- first, checking the session user's grant, and the owner's policies keep to its rows.
CREATE OR REPLACE FUNCTION memory.delete_simulation(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (nodes bigint, edges bigint, episodes bigint, profiles bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_nodes bigint;
    v_edges bigint;
    v_episodes bigint;
    v_profiles bigint;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    DELETE FROM memory.edges AS e WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id;
    GET DIAGNOSTICS v_edges = ROW_COUNT;
    DELETE FROM memory.nodes AS n WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id;
    GET DIAGNOSTICS v_nodes = ROW_COUNT;
    DELETE FROM memory.episodes AS e WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id;
    GET DIAGNOSTICS v_episodes = ROW_COUNT;
    DELETE FROM memory.profiles AS p WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id;
    GET DIAGNOSTICS v_profiles = ROW_COUNT;
    DELETE FROM memory.simulations AS s WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    RETURN QUERY SELECT v_nodes, v_edges, v_episodes, v_profiles;
END
$fn$;

COMMENT ON FUNCTION memory.delete_simulation(uuid, uuid) IS 'Delete a simulation with its nodes, edges, episodes and profiles; returns the counts (SECURITY DEFINER: writers hold no DELETE)';
REVOKE ALL ON FUNCTION memory.delete_simulation(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.delete_simulation(uuid, uuid) TO memory_writer;
