-- The newest build of a simulation's clumps and representatives (memory.search_builds) and
-- whether search_episodes may use it: the one home of the staleness rule. A build is fresh
-- while the change feed holds no change of the simulation's episodes or embeddings after the
-- change the build saw: every write path records its change in the feed in the writing
-- transaction (upserts with their ids, imports, compactions, re-embeddings), and the feed is
-- in commit order within a tenant, so a change the build did not see has a greater
-- change_id. A deleted simulation takes its builds with it. index_ok: the build's index of
-- representatives exists (it has one only when indexed). No row when the simulation has
-- no build. The caller has entered the tenant; the policies keep the rows to it.
CREATE OR REPLACE FUNCTION memory._clump_state(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (build_no bigint, sim_no bigint, points bigint, indexed boolean, fresh boolean,
               index_ok boolean, m integer, ef_construction integer)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT b.build_no, b.sim_no, b.points, b.indexed,
           NOT EXISTS (SELECT 1 FROM memory.changes AS c
                        WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
                          AND c.change_id > COALESCE(b.change_id, 0)
                          AND c.kind IN ('episodes', 'embeddings')),
           b.indexed AND pg_catalog.to_regclass('memory.' || memory._clump_index_name(b.sim_no, b.build_no)) IS NOT NULL,
           b.m, b.ef_construction
      FROM memory.search_builds AS b
     WHERE b.tenant_id = p_tenant_id AND b.simulation_id = p_simulation_id
     ORDER BY b.build_no DESC
     LIMIT 1
$fn$;

COMMENT ON FUNCTION memory._clump_state(uuid, uuid) IS 'Internal: a simulation''s newest clump build and whether search may use it (fresh: no change of its episodes since; its index present)';
GRANT EXECUTE ON FUNCTION memory._clump_state(uuid, uuid) TO memory_reader, memory_admin;
