-- Whether the caller acts for a tenant: some grant of the tenant names a role (by OID) whose
-- privileges the caller has, own or inherited (pg_has_role USAGE; mere membership without
-- INHERIT, or SET alone, gives nothing). The caller is memory._acting_role(): the current
-- role, or inside memory_owner's SECURITY DEFINER functions the role SET ROLE chose (else the
-- session user), so a narrowed session is narrowed everywhere. The grant's role is role_oid on
-- one node, and on a Citus cluster its OID on the node this runs on (node_role_oids, V0024:
-- OIDs differ per node; a node missing from the map gives no role, failing closed). A grant
-- whose role was dropped names an OID no role has, and authorises nobody. A superuser acts
-- for every tenant (it bypasses row-level security anyway). pg_roles is not joined to the
-- grants: Citus plans a query of a Citus table joined with it by reading pg_authid, which
-- only a superuser may. memory._current_tenant_id() writes the same
-- rule out for the current role (the policies' hot path), and the policy
-- roles_see_their_own_grants of memory.tenant_grants holds it too; change them together.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
CREATE OR REPLACE FUNCTION memory._holds_grant(p_tenant_id uuid) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF EXISTS (
        SELECT 1
          FROM memory.tenant_grants AS g
         WHERE g.tenant_id = p_tenant_id
           AND pg_catalog.pg_has_role(memory._acting_role(),
                                      CASE WHEN g.node_role_oids IS NULL THEN g.role_oid
                                           ELSE (g.node_role_oids ->> memory._node_group()::text)::oid END,
                                      'USAGE')) THEN
        RETURN true;
    END IF;
    -- a superuser acts for every tenant, granted or not: it bypasses row-level security and
    -- could grant itself anyway, so refusing it (a tenant it has just created, before any
    -- grant) would only stand in the way of the embedded server's default login. Asked
    -- second, in a statement of its own (see above on pg_roles and Citus).
    RETURN COALESCE((SELECT r.rolsuper FROM pg_catalog.pg_roles AS r WHERE r.rolname = memory._acting_role()), false);
END
$fn$;

COMMENT ON FUNCTION memory._holds_grant(uuid) IS 'Internal: whether the caller (memory._acting_role()) has the privileges of a role granted the tenant';
GRANT EXECUTE ON FUNCTION memory._holds_grant(uuid) TO memory_reader, memory_writer, memory_admin;
