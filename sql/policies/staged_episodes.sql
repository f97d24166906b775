-- memory.staged_episodes: staging rows of import attempts; only writers of the granted call tenant
-- may stage, read back, promote or discard them.
DROP POLICY IF EXISTS writers_manage_rows_of_the_granted_call_tenant ON memory.staged_episodes;
CREATE POLICY writers_manage_rows_of_the_granted_call_tenant ON memory.staged_episodes
    AS PERMISSIVE FOR ALL TO memory_writer
    USING (tenant_id = (SELECT memory._current_tenant_id()))
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));
