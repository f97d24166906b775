-- What `swarm-memory index` would do for the facts, as memory.ann_plan() for the episodes:
-- every simulation with at least p_min_rows embedded facts (edges with a vector) and its
-- index over them (memory.facts_ann_<sim_no>: 'build', 'rebuild', 'keep'), and every such
-- index whose simulation is gone or has fallen below p_min_rows ('drop'). Simulations by
-- their opaque number only. memory.ann_index_facts(sim_no, action) carries an action out;
-- memory.search_facts searches through the index where it exists and exactly otherwise.
CREATE OR REPLACE FUNCTION memory.ann_plan_facts(
    p_min_rows integer DEFAULT 2000,
    p_m integer DEFAULT 32,
    p_ef_construction integer DEFAULT 128)
RETURNS TABLE (sim_no bigint, index_name text, facts bigint, action text)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('ann_plan_facts', 'memory.search_facts, which searches a simulation''s facts exactly on a cluster');
    RETURN QUERY SELECT * FROM memory._ann_plan('facts', p_min_rows, p_m, p_ef_construction);
END
$fn$;

COMMENT ON FUNCTION memory.ann_plan_facts(integer, integer, integer) IS 'The per-simulation HNSW indexes over facts to build, rebuild, keep or drop (by simulation number); memory_admin';
GRANT EXECUTE ON FUNCTION memory.ann_plan_facts(integer, integer, integer) TO memory_admin;
