-- memory.tenant_grants: administrators manage every grant; any other role sees only the
-- grants of roles whose privileges it has (itself, or a role it inherits from), by OID: the
-- grant's role_oid, or on a Citus cluster its OID on this node (V0024, memory._holds_grant).
DROP POLICY IF EXISTS admins_manage_all_grants ON memory.tenant_grants;
CREATE POLICY admins_manage_all_grants ON memory.tenant_grants
    AS PERMISSIVE FOR ALL TO memory_admin
    USING (pg_catalog.pg_has_role(CURRENT_USER, 'memory_admin', 'MEMBER'))
    WITH CHECK (pg_catalog.pg_has_role(CURRENT_USER, 'memory_admin', 'MEMBER'));

DROP POLICY IF EXISTS roles_see_their_own_grants ON memory.tenant_grants;
CREATE POLICY roles_see_their_own_grants ON memory.tenant_grants
    AS PERMISSIVE FOR SELECT TO memory_reader
    USING (pg_catalog.pg_has_role(CURRENT_USER,
                                  CASE WHEN node_role_oids IS NULL THEN role_oid
                                       ELSE (node_role_oids ->> memory._node_group()::text)::oid END,
                                  'USAGE'));

-- memory_owner runs the SECURITY DEFINER functions that delete (no tenant role holds DELETE);
-- they enter the call's tenant first, and see and remove only its rows.
DROP POLICY IF EXISTS owner_sees_rows_of_the_entered_call_tenant ON memory.tenant_grants;
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.tenant_grants
    AS PERMISSIVE FOR SELECT TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_removes_rows_of_the_entered_call_tenant ON memory.tenant_grants;
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.tenant_grants
    AS PERMISSIVE FOR DELETE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));
