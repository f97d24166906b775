-- End one grant of a tenant to a role (by OID), for memory.revoke_tenant and for
-- memory.grant_tenant's removal of the grants of dropped roles. Decided by the grant's row:
-- on one node a grant has no map of node OIDs and goes (memory._delete_grant, SECURITY
-- DEFINER: administrators hold no DELETE); on a Citus cluster every grant has the map
-- (V0024) and the map is emptied instead (V0028): the grant then authorises nobody on any
-- node, and a delete of the reference table would reach every node over connections as
-- memory_owner, which may not log in. No grant, or one ended already: nothing changes.
CREATE OR REPLACE FUNCTION memory._end_grant(p_tenant_id uuid, p_role_oid oid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_map jsonb;
BEGIN
    PERFORM memory._require_admin();
    SELECT g.node_role_oids INTO v_map FROM memory.tenant_grants AS g
     WHERE g.tenant_id = p_tenant_id AND g.role_oid = p_role_oid;
    IF NOT FOUND THEN
        RETURN;
    ELSIF v_map IS NULL THEN
        PERFORM memory._delete_grant(p_tenant_id, p_role_oid);
    ELSIF v_map <> '{}'::jsonb THEN
        UPDATE memory.tenant_grants AS g SET node_role_oids = '{}'::jsonb
         WHERE g.tenant_id = p_tenant_id AND g.role_oid = p_role_oid;
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._end_grant(uuid, oid) IS 'Internal: end a grant of a tenant to a role (by OID): deleted on one node, its map of node OIDs emptied on a Citus cluster; memory_admin only';
GRANT EXECUTE ON FUNCTION memory._end_grant(uuid, oid) TO memory_admin;
