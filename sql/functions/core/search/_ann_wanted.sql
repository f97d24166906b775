-- The simulations big enough for an index of their own: every tenant's simulations with at
-- least p_min_rows embedded rows of the kind (episodes, the default, facts or entities), by tenant
-- and opaque number (memory._ann_counts reads each tenant's counts). The one list
-- memory.ann_plan(), memory.ann_plan_facts(), memory.ann_plan_entities() and
-- memory._clump_plan() decide from.
CREATE OR REPLACE FUNCTION memory._ann_wanted(p_min_rows integer, p_kind text DEFAULT 'episodes')
RETURNS TABLE (tenant_id uuid, sim_no bigint, embedded bigint)
LANGUAGE sql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT t.tenant_id, w.sim_no, w.embedded
      FROM memory.tenants AS t
     CROSS JOIN LATERAL memory._ann_counts(t.tenant_id, p_min_rows, p_kind) AS w
$fn$;

COMMENT ON FUNCTION memory._ann_wanted(integer, text) IS 'Internal: every tenant''s simulations with at least p_min_rows embedded episodes, facts or entities (memory_admin)';
GRANT EXECUTE ON FUNCTION memory._ann_wanted(integer, text) TO memory_admin;
