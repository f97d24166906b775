-- Take a role's grant for a tenant away. Idempotent: revoking an absent grant changes nothing.
CREATE OR REPLACE FUNCTION memory.revoke_tenant(p_role name, p_tenant_id uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF p_role IS NULL OR p_tenant_id IS NULL THEN
        RAISE EXCEPTION 'p_role and p_tenant_id must not be NULL (got %, %)', p_role, p_tenant_id
            USING ERRCODE = 'null_value_not_allowed', HINT = 'name the role and tenant of the grant';
    END IF;
    DELETE FROM memory.tenant_grants AS g
     WHERE g.tenant_id = p_tenant_id AND g.role_name = p_role;
END
$fn$;

COMMENT ON FUNCTION memory.revoke_tenant(name, uuid) IS 'Take a role''s grant for a tenant away; memory_admin only';
REVOKE ALL ON FUNCTION memory.revoke_tenant(name, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.revoke_tenant(name, uuid) TO memory_admin;
