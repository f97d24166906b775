-- memory.changes: the change feed. Readers of the call's tenant see its rows; no tenant role
-- writes them. memory._record_change (SECURITY DEFINER) adds them as memory_owner for the tenant
-- the call entered; nothing changes a row.
DROP POLICY IF EXISTS readers_see_rows_of_the_granted_call_tenant ON memory.changes;
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.changes
    AS PERMISSIVE FOR SELECT TO memory_reader
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_sees_rows_of_the_entered_call_tenant ON memory.changes;
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.changes
    AS PERMISSIVE FOR SELECT TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_adds_rows_to_the_entered_call_tenant ON memory.changes;
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.changes
    AS PERMISSIVE FOR INSERT TO memory_owner
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_removes_rows_of_the_entered_call_tenant ON memory.changes;
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.changes
    AS PERMISSIVE FOR DELETE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));
