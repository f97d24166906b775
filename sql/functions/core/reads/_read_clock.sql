-- The two clocks of a read from what its caller passed: a world time (p_as_of) or a round of
-- the simulation (p_round: the moment it ended, memory._round_moment), and a record time
-- (p_known_at) or a snapshot's name (p_snapshot: its record time, and its round unless the
-- caller names a world time or another round). A NULL clock stays NULL (the read's own
-- default: now). Passing both forms of one clock is 22023; an unknown or dropped snapshot
-- and a round with no timed episode up to it are P0002. The caller has entered the tenant.
CREATE OR REPLACE FUNCTION memory._read_clock(p_tenant_id uuid, p_simulation_id uuid,
                                              p_as_of timestamptz, p_known_at timestamptz,
                                              p_round integer, p_snapshot text)
RETURNS TABLE (as_of timestamptz, known_at timestamptz, round integer)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_known timestamptz := p_known_at;
    v_round integer := p_round;
    v_snap  record;
BEGIN
    IF p_snapshot IS NOT NULL THEN
        IF p_known_at IS NOT NULL THEN
            RAISE EXCEPTION 'pass p_known_at or p_snapshot, not both'
                USING ERRCODE = 'invalid_parameter_value', HINT = 'a snapshot is a record time of its own';
        END IF;
        SELECT s.known_at, s.round INTO v_snap
          FROM memory.snapshots AS s
         WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id
           AND s.name = p_snapshot AND s.dropped_at IS NULL;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'unknown snapshot % in simulation %', memory._quote(p_snapshot), p_simulation_id
                USING ERRCODE = 'no_data_found', HINT = 'list the simulation''s snapshots with memory.snapshots()';
        END IF;
        v_known := v_snap.known_at;
        v_round := COALESCE(p_round, CASE WHEN p_as_of IS NULL THEN v_snap.round END);
    END IF;
    IF v_round IS NULL THEN
        RETURN QUERY SELECT p_as_of, v_known, NULL::integer;
        RETURN;
    END IF;
    IF p_round IS NOT NULL AND p_as_of IS NOT NULL THEN
        RAISE EXCEPTION 'pass p_as_of or p_round, not both'
            USING ERRCODE = 'invalid_parameter_value', HINT = 'a round is a world time of its own';
    END IF;
    IF v_round < 0 THEN
        RAISE EXCEPTION 'round % is negative', v_round
            USING ERRCODE = 'invalid_parameter_value', HINT = 'rounds count from 0';
    END IF;
    as_of := memory._round_moment(p_tenant_id, p_simulation_id, v_round,
                                  CASE WHEN v_known < pg_catalog.now() THEN v_known END);
    IF as_of IS NULL THEN
        RAISE EXCEPTION 'no episode of simulation % up to round % carries a time', p_simulation_id, v_round
            USING ERRCODE = 'no_data_found', HINT = 'a round is read at its episodes'' latest occurred_at';
    END IF;
    known_at := v_known;
    round := v_round;
    RETURN NEXT;
END
$fn$;

COMMENT ON FUNCTION memory._read_clock(uuid, uuid, timestamptz, timestamptz, integer, text) IS 'Internal: a read''s world and record times from a moment or a round, and a record time or a snapshot';
GRANT EXECUTE ON FUNCTION memory._read_clock(uuid, uuid, timestamptz, timestamptz, integer, text) TO memory_reader;
