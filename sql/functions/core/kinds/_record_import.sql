-- The change feed's record of an import's promote: one change per record kind the promote
-- changed (inserted, updated or deleted rows), op 'import', with the attempt and its counts
-- (inserted, updated, unchanged, deleted, skipped) and, in detail, what the attempt replaced
-- of the kind (true: all of it; a list: those platforms). No ids: the range is the kind of
-- the simulation within that scope (a consumer re-reads it, or the rows the counts name).
-- Called by commit_import with the result it records on the attempt. Returns how many
-- changes it appended (0 for an unchanged replay).
CREATE OR REPLACE FUNCTION memory._record_import(p_tenant_id uuid, p_simulation_id uuid, p_attempt_id uuid,
                                                 p_result jsonb)
RETURNS integer
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind   text;
    v_n      integer := 0;
    v_counts jsonb;
    v_change bigint;
BEGIN
    FOR v_kind IN
        SELECT k.kind FROM memory._record_kinds() AS k
         WHERE COALESCE((p_result #>> ARRAY[k.kind, 'inserted'])::bigint, 0)
               + COALESCE((p_result #>> ARRAY[k.kind, 'updated'])::bigint, 0)
               + COALESCE((p_result #>> ARRAY[k.kind, 'deleted'])::bigint, 0) > 0
         ORDER BY k.ord
    LOOP
        -- the counts first: memory._record_change is called as a plain expression
        v_counts := (SELECT pg_catalog.jsonb_object_agg(c.key, c.value)
                       FROM pg_catalog.jsonb_each(p_result -> v_kind) AS c
                      WHERE c.key IN ('inserted', 'updated', 'unchanged', 'deleted', 'skipped'));
        v_change := memory._record_change(
            p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_kind => v_kind,
            p_op => 'import', p_ids => NULL, p_counts => v_counts, p_attempt_id => p_attempt_id,
            p_detail => pg_catalog.jsonb_build_object('replaced', COALESCE(p_result #> ARRAY[v_kind, 'replaced'], 'true'::jsonb)));
        v_n := v_n + 1;
    END LOOP;
    RETURN v_n;
END
$fn$;

COMMENT ON FUNCTION memory._record_import(uuid, uuid, uuid, jsonb) IS 'Internal: append an import''s promote to the change feed, one change per kind it changed';
GRANT EXECUTE ON FUNCTION memory._record_import(uuid, uuid, uuid, jsonb) TO memory_writer;
