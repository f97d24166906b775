-- Carry out one action of memory.ann_plan() for the simulation numbered p_sim_no (the
-- statements of memory._ann_statements: 'build', 'rebuild', 'drop', 'keep'; the index HNSW
-- over half-precision vectors, WHERE sim_no = p_sim_no). Returns the statements, in order.
-- A concurrent 'build' also builds the simulation's IVFFlat bridge first, searched until
-- the HNSW index is built, and drops it after (memory._ann_statements); every action drops a
-- bridge an interrupted run left.
-- On a Citus cluster a simulation's index is built on its tenant's shard by
-- memory.ann_index_tenant instead.
--
-- NOT p_run: the statements are only returned, with CONCURRENTLY, for a caller acting as
-- the table's owner (a superuser, or memory_owner by SET ROLE) to run one by one outside a
-- transaction: other tenants' reads and writes go on. `swarm-memory index` runs them so.
-- p_run (default): the statements would run here, in the caller's transaction, a plain
-- CREATE (or DROP) INDEX holding memory.episodes against every tenant's writes until it
-- ends: refused (55000, memory._ann_statements) whenever there is a statement to run; a
-- 'keep' with nothing to do returns nothing.
-- SECURITY DEFINER: only the owner of memory.episodes may index it. The caller is checked
-- as the session user (memory._require_admin); the one dynamic statement takes only
-- numbers and the name memory._ann_index_name() makes from a number.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory._acting_role()'s memory_admin privileges; no tenant; its SET
-- clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory.ann_index(
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
    v_stmts text[];
    v_stmt  text;
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('ann_index', 'memory.ann_index_tenant(tenant_id, simulation_id) for each simulation');
    v_stmts := memory._ann_statements(p_sim_no => p_sim_no, p_action => p_action, p_m => p_m,
                                      p_ef_construction => p_ef_construction,
                                      p_concurrently => NOT p_run, p_table => 'memory.episodes');
    FOREACH v_stmt IN ARRAY v_stmts LOOP
        IF p_run THEN
            EXECUTE v_stmt;
        END IF;
        RETURN NEXT v_stmt;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION memory.ann_index(bigint, text, integer, integer, boolean) IS 'Build, rebuild or drop a simulation''s HNSW index by its number (SECURITY DEFINER: only the owner may index); memory_admin';
GRANT EXECUTE ON FUNCTION memory.ann_index(bigint, text, integer, integer, boolean) TO memory_admin;
