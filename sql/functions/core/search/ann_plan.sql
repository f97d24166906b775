-- What `swarm-memory index` would do: every simulation with at least p_min_rows embedded
-- episodes and its index (action 'build' when missing or left invalid by an interrupted
-- build, 'rebuild' when built with other parameters than m = p_m, ef_construction =
-- p_ef_construction, 'keep' otherwise), and every per-simulation index whose simulation is
-- gone or has fallen below p_min_rows ('drop'). Simulations by their opaque number only.
-- memory.ann_index(sim_no, action) carries an action out (memory._ann_plan, which also plans
-- the facts' indexes of memory.ann_plan_facts).
CREATE OR REPLACE FUNCTION memory.ann_plan(
    p_min_rows integer DEFAULT 2000,
    p_m integer DEFAULT 32,
    p_ef_construction integer DEFAULT 128)
RETURNS TABLE (sim_no bigint, index_name text, episodes bigint, action text)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('ann_plan', 'memory.ann_index_tenant(tenant_id, simulation_id) for each simulation');
    RETURN QUERY SELECT * FROM memory._ann_plan('episodes', p_min_rows, p_m, p_ef_construction);
END
$fn$;

COMMENT ON FUNCTION memory.ann_plan(integer, integer, integer) IS 'The per-simulation HNSW indexes to build, rebuild, keep or drop (by simulation number); memory_admin';
GRANT EXECUTE ON FUNCTION memory.ann_plan(integer, integer, integer) TO memory_admin;
