-- Write rows of a record kind into its committed table: the one merge that both the
-- staged import (rows of an attempt, p_attempt_id) and the kind's upsert functions (a
-- validated jsonb batch, p_items) go through. The work is the kind's generated function
-- memory._merge_<kind> (sql/finalize/kind_merges.sql), whose statement memory._merge_sql
-- builds from the catalog: a column added to a kind's tables is merged without another
-- change here. A merge that inserted rows is refused whole (53400) when it leaves the tenant
-- above its quota of the kind (memory._check_quota, V0038).
CREATE OR REPLACE FUNCTION memory._merge(
    p_kind text,
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_attempt_id uuid,
    p_items jsonb DEFAULT NULL)
RETURNS TABLE (inserted bigint, updated bigint, unchanged bigint)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_inserted  bigint;
    v_updated   bigint;
    v_unchanged bigint;
BEGIN
    EXECUTE pg_catalog.format('SELECT * FROM memory.%I($1, $2, $3, $4)', '_merge_' || (memory._kind(p_kind)).kind)
       INTO v_inserted, v_updated, v_unchanged
      USING p_tenant_id, p_simulation_id, p_attempt_id, p_items;
    IF v_inserted > 0 THEN
        PERFORM memory._check_quota(p_tenant_id, p_kind);
    END IF;
    RETURN QUERY SELECT v_inserted, v_updated, v_unchanged;
END
$fn$;

COMMENT ON FUNCTION memory._merge(text, uuid, uuid, uuid, jsonb) IS 'Internal: insert or update rows of a record kind from an import attempt or a jsonb batch';
GRANT EXECUTE ON FUNCTION memory._merge(text, uuid, uuid, uuid, jsonb) TO memory_writer;
