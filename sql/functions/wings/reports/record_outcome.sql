-- Record what became of a prediction: p_outcome one of memory._outcomes() (confirmed,
-- refuted, partial, void; 22023 otherwise), with an optional note and the time it was observed; the row records
-- when and by which role. Recording it again replaces it (a correction); the same values
-- again change nothing. No import ever writes an outcome (memory.prediction_outcomes is no
-- record kind), so a re-import keeps it. An unknown prediction is P0002.
CREATE OR REPLACE FUNCTION memory.record_outcome(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_prediction_id text,
    p_outcome text,
    p_note text DEFAULT NULL,
    p_observed_at timestamptz DEFAULT NULL)
RETURNS TABLE (prediction_id text, outcome text, note text, observed_at timestamptz,
               recorded_at timestamptz, recorded_by name)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_change bigint;
BEGIN
    PERFORM memory._require_row('predictions', p_tenant_id, p_simulation_id, p_prediction_id);
    PERFORM memory._not_null(p_outcome, 'p_outcome', 'one of confirmed, refuted, partial, void (memory._outcomes())');
    PERFORM memory._check_limit('string_bytes', 'p_note', pg_catalog.octet_length(p_note));
    IF NOT p_outcome = ANY (memory._outcomes()) THEN
        RAISE EXCEPTION 'unknown outcome %', memory._quote(p_outcome)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'one of ' || pg_catalog.array_to_string(memory._outcomes(), ', ');
    END IF;
    -- the time and the user from the proposed row: Citus refuses functions that are not
    -- immutable in the DO UPDATE SET of a distributed table
    INSERT INTO memory.prediction_outcomes AS o
           (tenant_id, simulation_id, prediction_id, outcome, note, observed_at, recorded_at, recorded_by)
    VALUES (p_tenant_id, p_simulation_id, p_prediction_id, p_outcome, p_note, p_observed_at,
            pg_catalog.now(), CURRENT_USER)
    ON CONFLICT ON CONSTRAINT prediction_outcomes_pkey DO UPDATE
       SET outcome = excluded.outcome, note = excluded.note, observed_at = excluded.observed_at,
           recorded_at = excluded.recorded_at, recorded_by = excluded.recorded_by
     WHERE (o.outcome, o.note, o.observed_at) IS DISTINCT FROM (excluded.outcome, excluded.note, excluded.observed_at);
    IF FOUND THEN  -- the change feed (V0021), called as a plain expression (memory._record_change)
        v_change := memory._record_change(p_tenant_id => p_tenant_id,
                                          p_simulation_id => p_simulation_id,
                                          p_kind => 'prediction_outcomes', p_op => 'outcome',
                                          p_ids => ARRAY[p_prediction_id], p_counts => '{}',
                                          p_attempt_id => NULL,
                                          p_detail => pg_catalog.jsonb_build_object('outcome', p_outcome));
    END IF;
    RETURN QUERY
    SELECT o.prediction_id, o.outcome, o.note, o.observed_at, o.recorded_at, o.recorded_by
      FROM memory.prediction_outcomes AS o
     WHERE o.tenant_id = p_tenant_id AND o.simulation_id = p_simulation_id
       AND o.prediction_key = pg_catalog.md5(p_prediction_id)::uuid;
END
$fn$;

COMMENT ON FUNCTION memory.record_outcome(uuid, uuid, text, text, text, timestamptz) IS 'Record (or correct) the outcome of a prediction: confirmed, refuted, partial or void; imports never touch it';
GRANT EXECUTE ON FUNCTION memory.record_outcome(uuid, uuid, text, text, text, timestamptz) TO memory_writer;
