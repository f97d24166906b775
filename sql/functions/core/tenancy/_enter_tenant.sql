-- Every API function calls this first: it refuses a NULL tenant (22004) and a tenant the
-- caller holds no grant for (42501, the same whether the tenant exists or not), and makes
-- p_tenant_id the tenant of the current transaction for the RLS policies. The caller is
-- memory._acting_role() (memory._holds_grant). The tenant is set before the check because memory_owner's policy on
-- memory.tenant_grants shows it the grants of the call's tenant only; a refusal rolls the
-- setting back with the statement, and no tenant data is read before it.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
CREATE OR REPLACE FUNCTION memory._enter_tenant(p_tenant_id uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the id of the tenant the call acts for');
    PERFORM memory._set_tenant(p_tenant_id);
    IF NOT memory._holds_grant(p_tenant_id) THEN
        RAISE EXCEPTION 'role % holds no grant for tenant %',
                        memory._acting_role(), p_tenant_id
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'an administrator grants it with memory.grant_tenant(role, tenant); the grant counts for roles with the granted role''s privileges (INHERIT)';
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._enter_tenant(uuid) IS 'Internal: check the caller''s grant for a tenant (42501) and make it the tenant of the transaction';
GRANT EXECUTE ON FUNCTION memory._enter_tenant(uuid) TO memory_reader, memory_writer, memory_admin;
