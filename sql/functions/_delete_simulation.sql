-- Delete a simulation of the tenant with its nodes, edges, episodes and profiles (its import
-- attempts and staged rows go by cascade); returns how many rows of each kind went.
-- memory.delete_simulation calls it once the simulation is known to be the caller's.
-- SECURITY DEFINER: writers hold no DELETE on the tables (with it they could LOCK them in
-- modes that stop every tenant). memory._enter_tenant checks the session user's grant first
-- (SET ROLE does not change it), and the owner's policies keep every statement to its rows.
CREATE OR REPLACE FUNCTION memory._delete_simulation(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (nodes bigint, edges bigint, episodes bigint, profiles bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_nodes bigint;
    v_edges bigint;
    v_episodes bigint;
    v_profiles bigint;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
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

COMMENT ON FUNCTION memory._delete_simulation(uuid, uuid) IS 'Internal: delete a simulation''s rows of every kind, returning the counts (SECURITY DEFINER: writers hold no DELETE)';
REVOKE ALL ON FUNCTION memory._delete_simulation(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._delete_simulation(uuid, uuid) TO memory_writer;
