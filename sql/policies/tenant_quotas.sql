-- memory.tenant_quotas (V0038): a tenant's caps. Readers see their tenant's; memory.set_quota
-- (SECURITY DEFINER, memory_admin) writes them and memory._enforce_quota locks the row it
-- checks, both as memory_owner for the tenant the call entered.
DROP POLICY IF EXISTS readers_see_rows_of_the_granted_call_tenant ON memory.tenant_quotas;
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.tenant_quotas
    AS PERMISSIVE FOR SELECT TO memory_reader
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_sees_rows_of_the_entered_call_tenant ON memory.tenant_quotas;
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.tenant_quotas
    AS PERMISSIVE FOR SELECT TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_adds_rows_to_the_entered_call_tenant ON memory.tenant_quotas;
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.tenant_quotas
    AS PERMISSIVE FOR INSERT TO memory_owner
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_changes_rows_of_the_entered_call_tenant ON memory.tenant_quotas;
CREATE POLICY owner_changes_rows_of_the_entered_call_tenant ON memory.tenant_quotas
    AS PERMISSIVE FOR UPDATE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()))
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_removes_rows_of_the_entered_call_tenant ON memory.tenant_quotas;
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.tenant_quotas
    AS PERMISSIVE FOR DELETE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));
