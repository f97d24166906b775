-- The group roles the migrations create and share between tenants. No tenant is granted to
-- one of them (every member would act for it: memory.grant_tenant refuses, memory.rls_audit
-- flags), and they are the only roles that may hold privileges on memory tables.
CREATE OR REPLACE FUNCTION memory._group_roles() RETURNS name[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT ARRAY['memory_owner', 'memory_reader', 'memory_writer', 'memory_admin']::name[]
$fn$;

COMMENT ON FUNCTION memory._group_roles() IS 'Internal: the shared group roles of the migrations (never granted a tenant; the only holders of table privileges)';
GRANT EXECUTE ON FUNCTION memory._group_roles() TO memory_admin;
