-- Move the rows of this session's staging tables (see memory.open_staging) into an import
-- attempt, after checking them: a required field missing, a zero vector or a key staged
-- twice fails the call with 22023 naming the position (and for a key, both positions);
-- nothing of the call is kept then. Returns how many rows of each kind moved.
CREATE OR REPLACE FUNCTION memory.stage_rows(p_tenant_id uuid, p_attempt_id uuid)
RETURNS TABLE (nodes bigint, edges bigint, episodes bigint, profiles bigint)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
-- Bulk, set-based work on rows the planner has no statistics for yet (a new attempt's):
-- a nested loop chosen on a guess of one row turns quadratic, hash joins never do.
SET enable_nestloop = off
AS $fn$
DECLARE
    v_kind     memory.record_kind;
    v_position integer;
    v_second   integer;
    v_problem  text;
    v_moved    jsonb := '{}'::jsonb;
BEGIN
    PERFORM memory._require_attempt(p_tenant_id, p_attempt_id, true);
    IF pg_catalog.to_regclass('pg_temp.stage_nodes') IS NULL THEN
        RAISE EXCEPTION 'this session has no staging tables'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'call memory.open_staging() and fill pg_temp.stage_* first';
    END IF;

    -- Every row of every kind is checked before any moves: the first problem fails the call.
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.item LOOP
        SELECT p.row_position, p.problem INTO v_position, v_problem
          FROM memory._staging_problem(v_kind.kind) AS p;
        IF FOUND THEN
            RAISE EXCEPTION '% at position %: %', v_kind.item, v_position, v_problem
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'nothing of this batch was staged; fix the row and stage the batch again';
        END IF;
    END LOOP;
    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.item LOOP
        SELECT d.key, d.first_position, d.second_position INTO v_problem, v_position, v_second
          FROM memory._staging_duplicate(v_kind.kind, p_tenant_id, p_attempt_id) AS d;
        IF FOUND THEN
            RAISE EXCEPTION '% id % appears twice, at positions % and %', v_kind.item, memory._quote(v_problem),
                    v_position, v_second
                USING ERRCODE = 'invalid_parameter_value',
                      HINT = 'each row of an import needs its own id; nothing of this batch was staged';
        END IF;
    END LOOP;

    FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
        v_moved := v_moved || pg_catalog.jsonb_build_object(
            v_kind.kind, memory._stage_kind(v_kind.kind, p_tenant_id, p_attempt_id));
    END LOOP;
    RETURN QUERY SELECT (v_moved ->> 'nodes')::bigint, (v_moved ->> 'edges')::bigint,
                        (v_moved ->> 'episodes')::bigint, (v_moved ->> 'profiles')::bigint;
END
$fn$;

COMMENT ON FUNCTION memory.stage_rows(uuid, uuid) IS 'Check the session''s staging tables and move their rows into an import attempt; returns counts';
GRANT EXECUTE ON FUNCTION memory.stage_rows(uuid, uuid) TO memory_writer;
