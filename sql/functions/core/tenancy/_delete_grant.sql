-- Delete one grant: the row of memory.tenant_grants for a tenant and a role (by OID).
-- Returns whether there was one. memory.revoke_tenant calls it.
-- SECURITY DEFINER: administrators hold no DELETE on memory.tenant_grants (every tenant
-- call reads that table, so a lock taken with DELETE would stop them all). The caller is
-- checked as the session user, and the tenant set for the owner's policies, by
-- memory._enter_tenant_as_admin.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory._acting_role()'s memory_admin privileges and the call's tenant
-- setting, which memory._enter_tenant_as_admin makes in this call; its SET clauses pin the
-- rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._delete_grant(p_tenant_id uuid, p_role_oid oid) RETURNS boolean
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._enter_tenant_as_admin(p_tenant_id);
    SELECT memory._not_null(p_role_oid, 'p_role_oid', 'name the role of the grant by its OID');
    WITH gone AS (DELETE FROM memory.tenant_grants AS g
                   WHERE g.tenant_id = p_tenant_id AND g.role_oid = p_role_oid RETURNING 1)
    SELECT EXISTS (SELECT 1 FROM gone);
$fn$;

COMMENT ON FUNCTION memory._delete_grant(uuid, oid) IS 'Internal: delete the grant of a tenant to a role (by OID) for memory.revoke_tenant; memory_admin only (SECURITY DEFINER: admins hold no DELETE)';
GRANT EXECUTE ON FUNCTION memory._delete_grant(uuid, oid) TO memory_admin;
