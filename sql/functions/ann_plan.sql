-- What `swarm-memory index` would do: every simulation with at least p_min_rows embedded
-- episodes and its index (action 'build' when missing or left invalid by an interrupted
-- build, 'rebuild' when built with other parameters than m = p_m, ef_construction =
-- p_ef_construction, 'keep' otherwise), and every per-simulation index whose simulation is
-- gone or has fallen below p_min_rows ('drop'). Simulations by their opaque number only.
-- memory.ann_index(sim_no, action) carries an action out.
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
    RETURN QUERY
    WITH wanted AS (SELECT w.sim_no, w.episodes FROM memory._ann_wanted(p_min_rows) AS w),
    existing AS (
        SELECT c.relname::text AS index_name, i.indisvalid AS valid,
               COALESCE(c.reloptions, '{}') AS options
          FROM pg_catalog.pg_index AS i
          JOIN pg_catalog.pg_class AS c ON c.oid = i.indexrelid
         WHERE i.indrelid = 'memory.episodes'::pg_catalog.regclass
           AND c.relname ~ '^episodes_ann_[0-9]+$')
    SELECT w.sim_no, memory._ann_index_name(w.sim_no), w.episodes,
           CASE WHEN x.index_name IS NULL OR NOT x.valid THEN 'build'
                WHEN ARRAY(SELECT o FROM pg_catalog.unnest(x.options) AS o ORDER BY o)
                     <> ARRAY['ef_construction=' || p_ef_construction, 'm=' || p_m] THEN 'rebuild'
                ELSE 'keep' END
      FROM wanted AS w
      LEFT JOIN existing AS x ON x.index_name = memory._ann_index_name(w.sim_no)
    UNION ALL
    SELECT pg_catalog.substring(x.index_name, '[0-9]+$')::bigint, x.index_name, 0::bigint, 'drop'
      FROM existing AS x
     WHERE x.index_name NOT IN (SELECT memory._ann_index_name(w.sim_no) FROM wanted AS w)
     ORDER BY 3 DESC, 1;
END
$fn$;

COMMENT ON FUNCTION memory.ann_plan(integer, integer, integer) IS 'The per-simulation HNSW indexes to build, rebuild, keep or drop (by simulation number); memory_admin';
GRANT EXECUTE ON FUNCTION memory.ann_plan(integer, integer, integer) TO memory_admin;
