-- memory.vector_cache: append-only. Readers see the cached vectors of the granted call tenant;
-- writers add vectors to that tenant only. No policy lets a tenant role change or remove a
-- row (and no tenant role holds UPDATE or DELETE on the table).
DROP POLICY IF EXISTS readers_see_rows_of_the_granted_call_tenant ON memory.vector_cache;
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.vector_cache
    AS PERMISSIVE FOR SELECT TO memory_reader
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS writers_add_rows_to_the_granted_call_tenant ON memory.vector_cache;
CREATE POLICY writers_add_rows_to_the_granted_call_tenant ON memory.vector_cache
    AS PERMISSIVE FOR INSERT TO memory_writer
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));

-- memory_owner runs the SECURITY DEFINER functions that delete (no tenant role holds DELETE);
-- they enter the call's tenant first, and see and remove only its rows.
DROP POLICY IF EXISTS owner_sees_rows_of_the_entered_call_tenant ON memory.vector_cache;
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.vector_cache
    AS PERMISSIVE FOR SELECT TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_removes_rows_of_the_entered_call_tenant ON memory.vector_cache;
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.vector_cache
    AS PERMISSIVE FOR DELETE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));
