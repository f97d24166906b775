-- Let a role (and, for a group role, its members) act for a tenant. Idempotent.
CREATE OR REPLACE FUNCTION memory.grant_tenant(p_role name, p_tenant_id uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF p_role IS NULL OR p_tenant_id IS NULL THEN
        RAISE EXCEPTION 'p_role and p_tenant_id must not be NULL (got %, %)', p_role, p_tenant_id
            USING ERRCODE = 'null_value_not_allowed', HINT = 'name an existing role and tenant';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles AS r WHERE r.rolname = p_role) THEN
        RAISE EXCEPTION 'role % does not exist', p_role
            USING ERRCODE = 'undefined_object', HINT = 'create the role first (CREATE ROLE)';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id) THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'create it with memory.create_tenant()';
    END IF;
    INSERT INTO memory.tenant_grants (tenant_id, role_name)
    VALUES (p_tenant_id, p_role)
    ON CONFLICT (tenant_id, role_name) DO NOTHING;
END
$fn$;

COMMENT ON FUNCTION memory.grant_tenant(name, uuid) IS 'Let a role (and the members of a group role) act for a tenant; memory_admin only';
REVOKE ALL ON FUNCTION memory.grant_tenant(name, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.grant_tenant(name, uuid) TO memory_admin;
