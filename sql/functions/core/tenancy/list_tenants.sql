-- The tenants the caller may act for, by name: those whose grants name a role whose
-- privileges it has (memory._holds_grant), and for memory_admin every tenant. Takes no tenant
-- argument because it answers with exactly what the caller's grants name: the grants are read
-- under their own policy (a role sees the grants of roles it has the privileges of), and each
-- tenant's row is read as the tenant of the call, entered one at a time after the check; the
-- call's tenant setting is restored at the end.
CREATE OR REPLACE FUNCTION memory.list_tenants()
RETURNS TABLE (tenant_id uuid, name text, created_at timestamptz)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_tenant   uuid;
    v_previous text := pg_catalog.current_setting('memory.tenant_id', true);
BEGIN
    IF pg_catalog.pg_has_role(CURRENT_USER, 'memory_admin', 'USAGE') THEN
        RETURN QUERY SELECT t.tenant_id, t.name, t.created_at FROM memory.tenants AS t ORDER BY t.name;
        RETURN;
    END IF;
    FOR v_tenant IN SELECT DISTINCT g.tenant_id FROM memory.tenant_grants AS g LOOP
        CONTINUE WHEN NOT memory._holds_grant(v_tenant);
        PERFORM pg_catalog.set_config('memory.tenant_id', v_tenant::text, true);
        RETURN QUERY SELECT t.tenant_id, t.name, t.created_at FROM memory.tenants AS t
                      WHERE t.tenant_id = v_tenant;
    END LOOP;
    PERFORM pg_catalog.set_config('memory.tenant_id', COALESCE(v_previous, ''), true);
END
$fn$;

COMMENT ON FUNCTION memory.list_tenants() IS 'The tenants the caller may act for (every tenant for memory_admin), with their names';
GRANT EXECUTE ON FUNCTION memory.list_tenants() TO memory_reader, memory_admin;
