-- Carry out one action of memory.ann_plan_entities() for the simulation numbered p_sim_no:
-- the statements of memory._ann_statements over memory.nodes ('build', 'rebuild', 'drop',
-- 'keep'; two HNSW indexes over the entities' half-precision name and summary vectors, WHERE
-- sim_no = p_sim_no, named memory.entities_ann_<sim_no> and memory.entities_ann_<sim_no>_summary).
-- Returns the statements, in order. As memory.ann_index:
-- NOT p_run returns them with CONCURRENTLY, for `swarm-memory index` to run one by one
-- outside a transaction as the table's owner; p_run (default), which would run them in the
-- caller's transaction and hold memory.nodes against every tenant's writes of entities, is refused
-- (55000) whenever there is a statement to run.
-- SECURITY DEFINER: only the owner of memory.nodes may index it. The caller is checked as
-- the session user (memory._require_admin); the dynamic statements take only numbers and
-- the names memory._entities_ann_index_name() makes from a number.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory._acting_role()'s memory_admin privileges; no tenant; its SET
-- clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory.ann_index_entities(
    p_sim_no bigint,
    p_action text,
    p_m integer DEFAULT 32,
    p_ef_construction integer DEFAULT 128,
    p_run boolean DEFAULT true)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_stmt text;
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('ann_index_entities', 'memory.search_nodes, which searches a simulation''s entities exactly on a cluster');
    FOREACH v_stmt IN ARRAY memory._ann_statements(
        p_sim_no => p_sim_no, p_action => p_action, p_m => p_m,
        p_ef_construction => p_ef_construction, p_concurrently => NOT p_run,
        p_table => 'memory.nodes') LOOP
        IF p_run THEN
            EXECUTE v_stmt;
        END IF;
        RETURN NEXT v_stmt;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION memory.ann_index_entities(bigint, text, integer, integer, boolean) IS 'Build, rebuild or drop a simulation''s pair of HNSW indexes over its entities by its number (SECURITY DEFINER: only the owner may index); memory_admin';
GRANT EXECUTE ON FUNCTION memory.ann_index_entities(bigint, text, integer, integer, boolean) TO memory_admin;
