-- The clump builds of one tenant's simulations, by the simulation's opaque number, with
-- memory._clump_state's verdict on each: what memory._clump_plan() needs to decide what
-- to build again. Administrators hold no grant for any tenant and read no tenant data;
-- this reads the builds' numbers, states and parameters only.
-- SECURITY DEFINER: the builds are a tenant's rows, which row-level security shows to no
-- administrator. memory._enter_tenant_as_admin checks the caller as the session user and
-- sets the call's tenant for the owner's policies; it is put back as it was at the end.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory._acting_role()'s memory_admin privileges and the call's tenant
-- setting, which memory._enter_tenant_as_admin makes in this call (the caller's own setting
-- is put back after); its SET clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._clump_builds(p_tenant_id uuid)
RETURNS TABLE (sim_no bigint, build_no bigint, indexed boolean, fresh boolean, index_ok boolean,
               m integer, ef_construction integer)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_previous constant text := pg_catalog.current_setting('memory.tenant_id', true);
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    RETURN QUERY
    SELECT s.sim_no, s.build_no, s.indexed, s.fresh, s.index_ok, s.m, s.ef_construction
      FROM (SELECT DISTINCT b.simulation_id FROM memory.search_builds AS b
             WHERE b.tenant_id = p_tenant_id) AS x
     CROSS JOIN LATERAL memory._clump_state(p_tenant_id, x.simulation_id) AS s;
    PERFORM pg_catalog.set_config('memory.tenant_id', COALESCE(v_previous, ''), true);
END
$fn$;

COMMENT ON FUNCTION memory._clump_builds(uuid) IS 'Internal: the clump builds of one tenant by simulation number, fresh or not, for memory._clump_plan (SECURITY DEFINER: reads across tenants; memory_admin only)';
GRANT EXECUTE ON FUNCTION memory._clump_builds(uuid) TO memory_admin;
