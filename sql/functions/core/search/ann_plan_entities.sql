-- What `swarm-memory index` would do for the entities, as memory.ann_plan() for the episodes:
-- every simulation with at least p_min_rows embedded entities (nodes with a name vector) and
-- its pair of indexes over them (memory.entities_ann_<sim_no> over the name vectors, with
-- _summary over the summary vectors: 'build', 'rebuild', 'keep', decided by the first), and
-- every such pair whose simulation is gone or has fallen below p_min_rows ('drop').
-- Simulations by their opaque number only. memory.ann_index_entities(sim_no, action) carries
-- an action out; memory.search_nodes searches through the pair where it exists and exactly
-- otherwise.
CREATE OR REPLACE FUNCTION memory.ann_plan_entities(
    p_min_rows integer DEFAULT 2000,
    p_m integer DEFAULT 32,
    p_ef_construction integer DEFAULT 128)
RETURNS TABLE (sim_no bigint, index_name text, entities bigint, action text)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('ann_plan_entities', 'memory.search_nodes, which searches a simulation''s entities exactly on a cluster');
    RETURN QUERY SELECT * FROM memory._ann_plan('entities', p_min_rows, p_m, p_ef_construction);
END
$fn$;

COMMENT ON FUNCTION memory.ann_plan_entities(integer, integer, integer) IS 'The per-simulation HNSW index pairs over entities (name and summary vectors) to build, rebuild, keep or drop (by simulation number); memory_admin';
GRANT EXECUTE ON FUNCTION memory.ann_plan_entities(integer, integer, integer) TO memory_admin;
