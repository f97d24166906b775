-- Whether the caller acts for a tenant: some grant of the tenant names a role (by OID) whose
-- privileges the caller has, own or inherited (pg_has_role USAGE; mere membership without
-- INHERIT, or SET alone, gives nothing). The caller is the current role, except inside the
-- SECURITY DEFINER functions owned by memory_owner, where current_user is memory_owner and the
-- caller is the session user, which SET ROLE cannot change. A grant whose role was dropped
-- matches no role in pg_roles and authorises nobody. memory._current_tenant_id() writes the
-- same rule out for the current role (the policies' hot path); change both together.
CREATE OR REPLACE FUNCTION memory._holds_grant(p_tenant_id uuid) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT EXISTS (
        SELECT 1
          FROM memory.tenant_grants AS g
          JOIN pg_catalog.pg_roles AS r ON r.oid = g.role_oid
         WHERE g.tenant_id = p_tenant_id
           AND pg_catalog.pg_has_role(CASE WHEN CURRENT_USER = 'memory_owner' THEN SESSION_USER ELSE CURRENT_USER END,
                                      r.oid, 'USAGE'))
$fn$;

COMMENT ON FUNCTION memory._holds_grant(uuid) IS 'Internal: whether the caller (the session user inside memory_owner''s definer functions, else the current role) has the privileges of a role granted the tenant';
REVOKE ALL ON FUNCTION memory._holds_grant(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._holds_grant(uuid) TO memory_reader, memory_writer, memory_admin;
