-- memory.search_clumps: an indexed simulation's clumps (V0026). Readers of the call's tenant
-- see its rows; memory._clump_build (SECURITY DEFINER) adds and removes them as memory_owner
-- for the tenant the call entered. They go with their build.
DROP POLICY IF EXISTS readers_see_rows_of_the_granted_call_tenant ON memory.search_clumps;
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.search_clumps
    AS PERMISSIVE FOR SELECT TO memory_reader
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_sees_rows_of_the_entered_call_tenant ON memory.search_clumps;
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.search_clumps
    AS PERMISSIVE FOR SELECT TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_adds_rows_to_the_entered_call_tenant ON memory.search_clumps;
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.search_clumps
    AS PERMISSIVE FOR INSERT TO memory_owner
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_removes_rows_of_the_entered_call_tenant ON memory.search_clumps;
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.search_clumps
    AS PERMISSIVE FOR DELETE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));
