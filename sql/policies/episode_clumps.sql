-- memory.episode_clumps: compacted near-duplicate episodes. Readers see their tenant's rows;
-- memory.compact_episodes (SECURITY DEFINER) writes them as memory_owner for the tenant the
-- call entered; they go with their simulation by its foreign key.
DROP POLICY IF EXISTS readers_see_rows_of_the_granted_call_tenant ON memory.episode_clumps;
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.episode_clumps
    AS PERMISSIVE FOR SELECT TO memory_reader
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_sees_rows_of_the_entered_call_tenant ON memory.episode_clumps;
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.episode_clumps
    AS PERMISSIVE FOR SELECT TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_adds_rows_to_the_entered_call_tenant ON memory.episode_clumps;
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.episode_clumps
    AS PERMISSIVE FOR INSERT TO memory_owner
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_changes_rows_of_the_entered_call_tenant ON memory.episode_clumps;
CREATE POLICY owner_changes_rows_of_the_entered_call_tenant ON memory.episode_clumps
    AS PERMISSIVE FOR UPDATE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()))
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_removes_rows_of_the_entered_call_tenant ON memory.episode_clumps;
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.episode_clumps
    AS PERMISSIVE FOR DELETE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));
