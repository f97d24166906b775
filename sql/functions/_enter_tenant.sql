-- Every API function calls this first: it refuses a NULL tenant (22004) and a tenant the
-- current role holds no grant for (42501, the same whether the tenant exists or not), and
-- then makes p_tenant_id the tenant of the current transaction for the RLS policies.
CREATE OR REPLACE FUNCTION memory._enter_tenant(p_tenant_id uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF p_tenant_id IS NULL THEN
        RAISE EXCEPTION 'p_tenant_id must not be NULL'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'pass the id of the tenant the call acts for';
    END IF;
    IF NOT EXISTS (
        SELECT 1
          FROM memory.tenant_grants AS g
          JOIN pg_catalog.pg_roles AS r ON r.rolname = g.role_name
         WHERE g.tenant_id = p_tenant_id
           AND pg_catalog.pg_has_role(CURRENT_USER, r.oid, 'MEMBER'))
    THEN
        RAISE EXCEPTION 'role % holds no grant for tenant %', CURRENT_USER, p_tenant_id
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'an administrator grants it with memory.grant_tenant(role, tenant)';
    END IF;
    PERFORM pg_catalog.set_config('memory.tenant_id', p_tenant_id::text, true);
END
$fn$;

COMMENT ON FUNCTION memory._enter_tenant(uuid) IS 'Internal: check the caller''s grant for a tenant (42501) and make it the tenant of the transaction';
REVOKE ALL ON FUNCTION memory._enter_tenant(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._enter_tenant(uuid) TO memory_reader, memory_writer, memory_admin;
