-- memory.tenants: administrators manage every tenant; readers and writers see only the
-- tenant of the current call, when they hold a grant for it.
DROP POLICY IF EXISTS admins_manage_all_tenants ON memory.tenants;
CREATE POLICY admins_manage_all_tenants ON memory.tenants
    AS PERMISSIVE FOR ALL TO memory_admin
    USING (pg_catalog.pg_has_role(CURRENT_USER, 'memory_admin', 'MEMBER'))
    WITH CHECK (pg_catalog.pg_has_role(CURRENT_USER, 'memory_admin', 'MEMBER'));

DROP POLICY IF EXISTS readers_see_the_granted_call_tenant ON memory.tenants;
CREATE POLICY readers_see_the_granted_call_tenant ON memory.tenants
    AS PERMISSIVE FOR SELECT TO memory_reader
    USING (tenant_id = (SELECT memory._current_tenant_id()));

-- memory_owner runs the SECURITY DEFINER functions that delete (no tenant role holds DELETE);
-- they enter the call's tenant first, and see and remove only its rows.
DROP POLICY IF EXISTS owner_sees_rows_of_the_entered_call_tenant ON memory.tenants;
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.tenants
    AS PERMISSIVE FOR SELECT TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_removes_rows_of_the_entered_call_tenant ON memory.tenants;
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.tenants
    AS PERMISSIVE FOR DELETE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));
