-- Whether the memory runs distributed over a Citus cluster: memory.simulations is a
-- distributed table (Citus installed but the schema not distributed: one node).
CREATE OR REPLACE FUNCTION memory._on_cluster() RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_cluster boolean := false;
BEGIN
    IF pg_catalog.to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
        EXECUTE 'SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition AS d'
                '                WHERE d.logicalrelid = ''memory.simulations''::pg_catalog.regclass)'
           INTO v_cluster;
    END IF;
    RETURN v_cluster;
END
$fn$;

COMMENT ON FUNCTION memory._on_cluster() IS 'Internal: whether the memory schema is distributed over a Citus cluster';
GRANT EXECUTE ON FUNCTION memory._on_cluster() TO memory_reader, memory_admin;
