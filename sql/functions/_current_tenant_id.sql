-- The tenant of the current call, if the current role holds a grant for it; else NULL.
-- Row-level security policies compare tenant_id with this value (wrapped in a scalar
-- subquery so that it is evaluated once per statement). API functions set the call's tenant
-- with memory._enter_tenant(); a role that sets memory.tenant_id by hand gains nothing,
-- since the grant is checked here as well.
CREATE OR REPLACE FUNCTION memory._current_tenant_id() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT g.tenant_id
      FROM memory.tenant_grants AS g
      JOIN pg_catalog.pg_roles AS r ON r.rolname = g.role_name
     WHERE g.tenant_id = NULLIF(pg_catalog.current_setting('memory.tenant_id', true), '')::uuid
       AND pg_catalog.pg_has_role(CURRENT_USER, r.oid, 'MEMBER')
     LIMIT 1
$fn$;

COMMENT ON FUNCTION memory._current_tenant_id() IS 'Internal: tenant of the current call when the current role is granted it, else NULL (used by RLS policies)';
REVOKE ALL ON FUNCTION memory._current_tenant_id() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._current_tenant_id() TO memory_reader, memory_writer, memory_admin;
