-- memory.search_builds: what swarm-memory index found in a simulation for search (V0026).
-- Readers of the call's tenant see its rows; no tenant role writes them. memory._clump_build
-- (SECURITY DEFINER) adds and removes them as memory_owner for the tenant the call entered;
-- a build fills in its own row's counts once its rows are written. They go with their
-- simulation.
DROP POLICY IF EXISTS readers_see_rows_of_the_granted_call_tenant ON memory.search_builds;
CREATE POLICY readers_see_rows_of_the_granted_call_tenant ON memory.search_builds
    AS PERMISSIVE FOR SELECT TO memory_reader
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_sees_rows_of_the_entered_call_tenant ON memory.search_builds;
CREATE POLICY owner_sees_rows_of_the_entered_call_tenant ON memory.search_builds
    AS PERMISSIVE FOR SELECT TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_adds_rows_to_the_entered_call_tenant ON memory.search_builds;
CREATE POLICY owner_adds_rows_to_the_entered_call_tenant ON memory.search_builds
    AS PERMISSIVE FOR INSERT TO memory_owner
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_removes_rows_of_the_entered_call_tenant ON memory.search_builds;
CREATE POLICY owner_removes_rows_of_the_entered_call_tenant ON memory.search_builds
    AS PERMISSIVE FOR DELETE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()));

DROP POLICY IF EXISTS owner_changes_rows_of_the_entered_call_tenant ON memory.search_builds;
CREATE POLICY owner_changes_rows_of_the_entered_call_tenant ON memory.search_builds
    AS PERMISSIVE FOR UPDATE TO memory_owner
    USING (tenant_id = (SELECT memory._current_tenant_id()))
    WITH CHECK (tenant_id = (SELECT memory._current_tenant_id()));
