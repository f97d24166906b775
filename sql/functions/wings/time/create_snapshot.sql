-- Freeze a simulation under a name: the memory as it is now (its record time), optionally
-- read at a round (p_round: the world time its reads default to). A snapshot copies no row:
-- its reads (memory.facts, memory.neighbors ... p_snapshot) read the memory as it was
-- then through memory._known over memory.row_history, so an import that changes the
-- simulation later changes none of its answers; retention keeps a simulation that has a
-- snapshot (memory._sweep_tenant). Waits for an import committing into the simulation (its
-- row lock) and refuses one still loading (55006), so the record time it takes is after
-- every write it could have missed. A replay (same name, same round) returns the snapshot
-- unchanged; the name taken with another round is 23505.
CREATE OR REPLACE FUNCTION memory.create_snapshot(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_name text,
    p_round integer DEFAULT NULL,
    p_note text DEFAULT NULL)
RETURNS TABLE (name text, known_at timestamptz, round integer, created boolean)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_row record;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._not_null(p_name, 'p_name', 'name the snapshot');
    PERFORM memory._check_limit('string_bytes', 'p_note', pg_catalog.octet_length(p_note));
    IF p_name = '' OR pg_catalog.length(p_name) > 200 THEN
        RAISE EXCEPTION 'snapshot name % is empty or longer than 200 characters', memory._quote(p_name)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'name it in 1 to 200 characters';
    END IF;
    IF p_round IS NOT NULL THEN  -- the round must be readable: 22023 or P0002 otherwise
        PERFORM memory._read_clock(p_tenant_id, p_simulation_id, NULL, NULL, p_round, NULL);
    END IF;
    PERFORM 1 FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id FOR SHARE;
    SELECT s.name, s.known_at, s.round INTO v_row
      FROM memory.snapshots AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id
       AND s.name = p_name AND s.dropped_at IS NULL;
    IF FOUND THEN
        IF v_row.round IS DISTINCT FROM p_round THEN
            RAISE EXCEPTION 'snapshot % exists at round %', memory._quote(p_name), COALESCE(v_row.round::text, 'none')
                USING ERRCODE = 'unique_violation', HINT = 'drop it first with memory.drop_snapshot(), or pick another name';
        END IF;
        RETURN QUERY SELECT v_row.name, v_row.known_at, v_row.round, false;
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM memory.import_attempts AS a
                WHERE a.tenant_id = p_tenant_id AND a.simulation_id = p_simulation_id
                  AND a.state = 'loading') THEN
        RAISE EXCEPTION 'an import is loading into simulation %', p_simulation_id
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'snapshot once it has committed or aborted (memory.import_attempts())';
    END IF;
    -- the clock's time, not the transaction's: every write committed before the lock above
    -- was granted is at or before it
    RETURN QUERY
    INSERT INTO memory.snapshots AS s (tenant_id, simulation_id, name, known_at, round, note)
    VALUES (p_tenant_id, p_simulation_id, p_name, pg_catalog.clock_timestamp(), p_round, p_note)
    RETURNING s.name, s.known_at, s.round, true;
END
$fn$;

COMMENT ON FUNCTION memory.create_snapshot(uuid, uuid, text, integer, text) IS 'Freeze a simulation under a name (its record time, optionally a round): later imports change none of its reads; idempotent';
GRANT EXECUTE ON FUNCTION memory.create_snapshot(uuid, uuid, text, integer, text) TO memory_writer;
