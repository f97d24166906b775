-- Remove a tenant and everything it holds, from every table, atomically; returns how many
-- simulations, nodes, edges, episodes, profiles, grants, reports and predictions went
-- (staged rows, import attempts, a report's parts, recorded outcomes and cached vectors go
-- as well). An unknown tenant is P0002. The only way a tenant's rows leave
-- memory.tenants: no role holds DELETE on it, so a foreign-key cascade cannot reach past
-- row-level security.
-- The tenant's per-simulation search indexes (partial, named by simulation number) are not
-- dropped here: a DROP INDEX in this transaction would hold memory.episodes, memory.edges,
-- memory.nodes or memory.search_points in ACCESS EXCLUSIVE mode, stopping every tenant's
-- reads and writes while it waits and until the commit, and DROP INDEX CONCURRENTLY cannot
-- run in a function. `swarm-memory tenant delete` drops them CONCURRENTLY right after this
-- call (swarm_memory.ann.delete_tenant); after a bare call, emptied, they go with the next
-- `swarm-memory index`.
-- SECURITY DEFINER: administrators hold no DELETE (with it they could LOCK the tables in
-- modes that stop every tenant). memory._enter_tenant_as_admin checks the caller as the
-- session user (SET ROLE does not change it) and sets the call's tenant for the owner's
-- policies, which keep every statement to its rows.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory._acting_role()'s memory_admin privileges and the call's tenant
-- setting, which memory._enter_tenant_as_admin makes in this call; its SET clauses pin the
-- rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory.delete_tenant(p_tenant_id uuid)
RETURNS TABLE (simulations bigint, nodes bigint, edges bigint, episodes bigint, profiles bigint,
               grants bigint, reports bigint, predictions bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_kind        memory.record_kind;
    v_count       bigint;
    v_counts      jsonb := '{}'::jsonb;
    v_simulations bigint;
    v_grants      bigint;
    v_change      bigint;
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    PERFORM 1 FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'list the tenants with SELECT * FROM memory.tenants';
    END IF;

    -- Each kind counted, then the simulations deleted: their rows of every kind go by the
    -- foreign keys' cascade, and so the history trigger keeps no version of them.
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
        EXECUTE pg_catalog.format('DELETE FROM %s AS s WHERE s.tenant_id = $1', v_kind.staged) USING p_tenant_id;
        EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s AS l WHERE l.tenant_id = $1', v_kind.live)
           INTO v_count USING p_tenant_id;
        v_counts := v_counts || pg_catalog.jsonb_build_object(v_kind.kind, v_count);
    END LOOP;
    DELETE FROM memory.import_attempts AS a WHERE a.tenant_id = p_tenant_id;
    DELETE FROM memory.vector_cache AS c WHERE c.tenant_id = p_tenant_id;
    DELETE FROM memory.simulations AS s WHERE s.tenant_id = p_tenant_id;
    GET DIAGNOSTICS v_simulations = ROW_COUNT;
    DELETE FROM memory.tenant_grants AS g WHERE g.tenant_id = p_tenant_id;
    GET DIAGNOSTICS v_grants = ROW_COUNT;
    -- The change feed goes with the tenant (the row below with it); its NOTIFY wakes consumers (V0021).
    v_change := memory._record_change(p_tenant_id => p_tenant_id, p_simulation_id => NULL,
                                      p_kind => 'tenant', p_op => 'delete', p_ids => NULL,
                                      p_counts => v_counts);
    -- Last: a row added meanwhile (its foreign key holds this row) goes by the cascade.
    DELETE FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id;

    RETURN QUERY SELECT v_simulations, (v_counts ->> 'nodes')::bigint, (v_counts ->> 'edges')::bigint,
                        (v_counts ->> 'episodes')::bigint, (v_counts ->> 'profiles')::bigint, v_grants,
                        (v_counts ->> 'reports')::bigint, (v_counts ->> 'predictions')::bigint;
END
$fn$;

COMMENT ON FUNCTION memory.delete_tenant(uuid) IS 'Remove a tenant with all its rows and grants, atomically; returns the counts; memory_admin only (SECURITY DEFINER: admins hold no DELETE)';
GRANT EXECUTE ON FUNCTION memory.delete_tenant(uuid) TO memory_admin;
