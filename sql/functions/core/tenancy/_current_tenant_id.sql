-- The tenant of the current call (the memory.tenant_id setting), if the caller acts for it;
-- else NULL. Row-level security policies compare tenant_id with this value (wrapped in a
-- scalar subquery so that it is evaluated once per statement). API functions set the call's
-- tenant with memory._enter_tenant(); a role that sets memory.tenant_id by hand gains
-- nothing, since the grant is checked here as well: memory._holds_grant's rule (a grant by
-- role OID whose privileges the current role has), written out here rather than called,
-- because every policy evaluates this function once per table a statement reads and a
-- nested call (two functions with a pinned search_path) tripled the walk's row-level-security
-- overhead (bench/README.md).
-- The grant's role on a Citus cluster, and why pg_roles is not joined: see
-- memory._holds_grant. For memory_owner
-- the setting is returned unchecked: only the definer functions memory_owner owns run as
-- it, and each sets the tenant itself after checking its caller (memory._enter_tenant, or
-- memory._require_admin for the administrators' functions).
CREATE OR REPLACE FUNCTION memory._current_tenant_id() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT v.tenant_id
      FROM (SELECT NULLIF(pg_catalog.current_setting('memory.tenant_id', true), '')::uuid AS tenant_id) AS v
     WHERE CURRENT_USER = 'memory_owner'
        OR EXISTS (SELECT 1
                     FROM memory.tenant_grants AS g
                    WHERE g.tenant_id = v.tenant_id
                      AND pg_catalog.pg_has_role(CURRENT_USER,
                                                 CASE WHEN g.node_role_oids IS NULL THEN g.role_oid
                                                      ELSE (g.node_role_oids ->> memory._node_group()::text)::oid END,
                                                 'USAGE'))
$fn$;

COMMENT ON FUNCTION memory._current_tenant_id() IS 'Internal: tenant of the current call when the caller holds a grant for it (memory_owner: unchecked), else NULL (used by RLS policies)';
GRANT EXECUTE ON FUNCTION memory._current_tenant_id() TO memory_reader, memory_writer, memory_admin;
