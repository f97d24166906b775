-- Run on every deploy, after the functions and before ownership.sql: one merge function per
-- record kind, memory._merge_<kind>(tenant, simulation, attempt, items), whose body is the
-- statement memory._merge_sql builds from the catalog, written out as static SQL. A
-- statement built and planned on every call cost a single-row upsert about 0.85 ms of its
-- 2.9 ms (make bench, record by record); a static one is planned once a session. The
-- tables only change through migrations, and every migrate re-applies this file, so the
-- bodies follow the tables (sql/tests/001_schema.sql checks that each body is the
-- statement _merge_sql builds now). memory._merge calls them.
SET LOCAL search_path = pg_catalog, pg_temp;
DO $merges$
DECLARE
    v_kind text;
    v_fn   text;
BEGIN
    FOR v_kind IN SELECT k.kind FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
        v_fn := pg_catalog.format('memory.%I(uuid, uuid, uuid, jsonb)', '_merge_' || v_kind);
        EXECUTE pg_catalog.format(
            'CREATE OR REPLACE FUNCTION memory.%I(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid, p_items jsonb)'
            ' RETURNS TABLE (inserted bigint, updated bigint, unchanged bigint)'
            ' LANGUAGE plpgsql VOLATILE SECURITY INVOKER'
            ' SET search_path = pg_catalog, pg_temp'
            ' AS %L',
            '_merge_' || v_kind,
            pg_catalog.format(E'\nBEGIN\n    IF p_attempt_id IS NOT NULL THEN\n        RETURN QUERY %s;\n    ELSE\n        RETURN QUERY %s;\n    END IF;\nEND\n',
                              memory._merge_sql(v_kind, true), memory._merge_sql(v_kind, false)));
        EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', v_fn,
            pg_catalog.format('Internal: the merge of %s (generated from memory._merge_sql on every deploy)', v_kind));
        EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION %s FROM PUBLIC', v_fn);
        EXECUTE pg_catalog.format('GRANT EXECUTE ON FUNCTION %s TO memory_writer', v_fn);
    END LOOP;
END
$merges$;
