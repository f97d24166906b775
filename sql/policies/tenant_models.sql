-- memory.tenant_models (V0022): a row is visible and writable only while its tenant is the
-- tenant of the current call (set by the API functions) and the current role holds a grant
-- for it.
-- memory._current_tenant_id() checks both; the scalar subquery evaluates it once a statement.
DROP POLICY IF EXISTS readers_see_rows_of_the_granted_call_tenant ON memory.tenant_models;
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.tenant_models
    AS PERMISSIVE FOR SELECT TO memory_reader
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS writers_add_rows_to_the_granted_call_tenant ON memory.tenant_models;
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.tenant_models
    AS PERMISSIVE FOR INSERT TO memory_writer
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS writers_change_rows_of_the_granted_call_tenant ON memory.tenant_models;
CREATE POLICY writers_change_rows_of_the_granted_call_tenant ON memory.tenant_models
    AS PERMISSIVE FOR UPDATE TO memory_writer
    USING (tenant_id = (SELECT memory._current_tenant_id()))
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS writers_remove_rows_of_the_granted_call_tenant ON memory.tenant_models;
CREATE POLICY writers_remove_rows_of_the_granted_call_tenant ON memory.tenant_models
    AS PERMISSIVE FOR DELETE TO memory_writer
    USING (tenant_id = (SELECT memory._current_tenant_id()));

-- memory_owner runs the SECURITY DEFINER functions that delete (no tenant role holds DELETE);
-- they enter the call's tenant first, and see and remove only its rows.
DROP POLICY IF EXISTS owner_sees_rows_of_the_entered_call_tenant ON memory.tenant_models;
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.tenant_models
    AS PERMISSIVE FOR SELECT TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_removes_rows_of_the_entered_call_tenant ON memory.tenant_models;
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.tenant_models
    AS PERMISSIVE FOR DELETE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));
