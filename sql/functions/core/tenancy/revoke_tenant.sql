-- Take a role's grant for a tenant away: the role's name is resolved to its OID, and the
-- grant of that OID ends (memory._end_grant: deleted on one node, its map of node OIDs
-- emptied on a Citus cluster). Idempotent:
-- revoking an absent grant, or naming a role that does not exist, changes nothing (a dropped
-- role's grants authorise nobody; memory.grant_tenant removes them).
CREATE OR REPLACE FUNCTION memory.revoke_tenant(p_role name, p_tenant_id uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF p_role IS NULL OR p_tenant_id IS NULL THEN
        RAISE EXCEPTION 'p_role and p_tenant_id must not be NULL (got %, %)', p_role, p_tenant_id
            USING ERRCODE = 'null_value_not_allowed', HINT = 'name the role and tenant of the grant';
    END IF;
    PERFORM memory._end_grant(p_tenant_id, r.oid)
       FROM pg_catalog.pg_roles AS r
      WHERE r.rolname = p_role;
END
$fn$;

COMMENT ON FUNCTION memory.revoke_tenant(name, uuid) IS 'Take a role''s grant (by OID) for a tenant away; memory_admin only';
GRANT EXECUTE ON FUNCTION memory.revoke_tenant(name, uuid) TO memory_admin;
