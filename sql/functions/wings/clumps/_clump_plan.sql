-- What `swarm-memory index` does about clumps, beside memory.ann_plan()'s indexes: every
-- simulation with at least p_min_rows embedded episodes gets a clump build (memory._clump_build)
-- when it has none, when its build is stale (its episodes changed since), when its index of
-- representatives is missing, or when that index was built with other parameters than
-- m = p_m, ef_construction = p_ef_construction ('clump'); otherwise 'keep'. The builds of
-- simulations that have fallen below p_min_rows go ('drop'). Simulations by tenant and
-- opaque number: memory._clump_build needs the tenant to enter it.
CREATE OR REPLACE FUNCTION memory._clump_plan(
    p_min_rows integer DEFAULT 2000,
    p_m integer DEFAULT 32,
    p_ef_construction integer DEFAULT 128)
RETURNS TABLE (tenant_id uuid, sim_no bigint, episodes bigint, action text)
LANGUAGE sql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT memory._require_admin();
    WITH wanted AS (SELECT * FROM memory._ann_wanted(p_min_rows)),
    built AS (
        SELECT t.tenant_id, b.*
          FROM memory.tenants AS t
         CROSS JOIN LATERAL memory._clump_builds(t.tenant_id) AS b)
    SELECT w.tenant_id, w.sim_no, w.embedded,
           CASE WHEN b.build_no IS NULL OR NOT b.fresh OR (b.indexed AND NOT b.index_ok)
                     OR (b.indexed AND (b.m, b.ef_construction) IS DISTINCT FROM (p_m, p_ef_construction))
                THEN 'clump' ELSE 'keep' END
      FROM wanted AS w
      LEFT JOIN built AS b ON b.tenant_id = w.tenant_id AND b.sim_no = w.sim_no
    UNION ALL
    SELECT b.tenant_id, b.sim_no, 0::bigint, 'drop'
      FROM built AS b
     WHERE NOT EXISTS (SELECT 1 FROM wanted AS w WHERE w.tenant_id = b.tenant_id AND w.sim_no = b.sim_no)
     ORDER BY 3 DESC, 2;
$fn$;

COMMENT ON FUNCTION memory._clump_plan(integer, integer, integer) IS 'Internal: the clump builds swarm-memory index makes, keeps or drops (by tenant and simulation number); memory_admin';
GRANT EXECUTE ON FUNCTION memory._clump_plan(integer, integer, integer) TO memory_admin;
