-- Refuse a call on a Citus cluster (0A000), naming the form that runs there (p_instead):
-- for the API functions whose tenant may be NULL (memory.sweep, memory.health), which stay
-- on the coordinator, since Citus 14.0.1 crashes planning a delegated call with a NULL
-- distribution argument (docs/scale-out.md), and whose work is a tenant's, done on the
-- tenant's worker by their per-tenant forms; and for the index builds over every
-- simulation (memory.ann_plan, memory.ann_index), whose indexes belong on the tenants'
-- shards (memory.ann_index_tenant). A cluster: memory._on_cluster.
CREATE OR REPLACE FUNCTION memory._refuse_on_cluster(p_function text, p_instead text) RETURNS void
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF memory._on_cluster() THEN
        RAISE EXCEPTION 'memory.% does not run on a Citus cluster', p_function
            USING ERRCODE = 'feature_not_supported', HINT = 'call ' OPERATOR(pg_catalog.||) p_instead;
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._refuse_on_cluster(text, text) IS 'Internal: 0A000 on a Citus cluster, naming the per-tenant call that runs there';
GRANT EXECUTE ON FUNCTION memory._refuse_on_cluster(text, text) TO memory_reader, memory_admin;
