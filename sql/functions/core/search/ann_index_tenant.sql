-- Build, rebuild or drop a simulation's HNSW index by its tenant and id (the actions of
-- memory.ann_index, m and ef_construction as there), in the caller's transaction: the form
-- a Citus cluster runs. There the call is delegated to the tenant's worker and the index
-- goes on the tenant's shard of memory.episodes alone (an index on the distributed table
-- would be built, empty, on every shard of every tenant), under the same name, where
-- memory.search_episodes, run on that worker, finds and uses it; a plain CREATE INDEX, which
-- holds the shard in SHARE mode for the call (the writes of the tenants sharing it wait).
-- A shard moved to another worker arrives there without the index: the search answers
-- exactly until the index is built again (memory.health_tenant says 'missing').
-- On one node a plain CREATE or DROP INDEX would hold memory.episodes against every
-- tenant's writes, and CREATE INDEX CONCURRENTLY cannot run inside a function: any action
-- with a statement to run is refused there (55000, memory._ann_statements, naming
-- `swarm-memory index`, which builds CONCURRENTLY outside a transaction).
-- Unknown simulation P0002; memory_admin only. Returns the statements, in order.
-- SECURITY DEFINER: only the owner of memory.episodes (and of its shards) may index it. The
-- caller is checked as the session user (memory._enter_tenant_as_admin); the statements
-- take only numbers and names made from them.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory._acting_role()'s memory_admin privileges and the call's tenant
-- setting, which memory._enter_tenant_as_admin makes in this call; its SET clauses pin the
-- rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory.ann_index_tenant(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_action text DEFAULT 'build',
    p_m integer DEFAULT 32,
    p_ef_construction integer DEFAULT 128)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_sim_no bigint;
    v_table  regclass := 'memory.episodes'::regclass;
    v_shard  bigint;
    v_stmt   text;
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    SELECT s.sim_no INTO v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown simulation % of tenant %', p_simulation_id, p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'list the tenant''s simulations with memory.list_simulations()';
    END IF;
    IF memory._on_cluster() THEN
        EXECUTE 'SELECT pg_catalog.get_shard_id_for_distribution_column(''memory.episodes'', $1)'
           INTO v_shard USING p_tenant_id;
        v_table := pg_catalog.to_regclass('memory.episodes_' || v_shard::text);
        IF v_table IS NULL THEN
            RAISE EXCEPTION 'the shard of tenant % is not on this node', p_tenant_id
                USING ERRCODE = 'feature_not_supported',
                      HINT = 'call memory.ann_index_tenant through the coordinator, as one statement: it runs on the tenant''s worker';
        END IF;
    END IF;
    FOREACH v_stmt IN ARRAY memory._ann_statements(
        p_sim_no => v_sim_no, p_action => p_action, p_m => p_m,
        p_ef_construction => p_ef_construction, p_concurrently => false, p_table => v_table) LOOP
        EXECUTE v_stmt;
        RETURN NEXT v_stmt;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION memory.ann_index_tenant(uuid, uuid, text, integer, integer) IS 'Build, rebuild or drop a simulation''s HNSW index by tenant and id; on a Citus cluster on the tenant''s shard, on its worker (SECURITY DEFINER: only the owner may index); memory_admin';
GRANT EXECUTE ON FUNCTION memory.ann_index_tenant(uuid, uuid, text, integer, integer) TO memory_admin;
