-- What a walk (memory.neighbors, memory.neighbor_ids) settles before it starts, in one
-- home: the simulation's grant, the two clocks (p_round and p_snapshot standing for p_as_of
-- and p_known_at: memory._read_clock; the world time now when none is given, the record
-- time NULL for now or later), its arguments' checks and the start node, which must exist
-- as the memory held it at that record time; and the directions the walk follows.
CREATE OR REPLACE FUNCTION memory._walk_start(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_node_id text,
    p_edge_types text[],
    p_direction text,
    p_as_of timestamptz,
    p_known_at timestamptz,
    p_round integer,
    p_snapshot text)
RETURNS TABLE (as_of timestamptz, known_at timestamptz, go_out boolean, go_in boolean)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_start uuid := pg_catalog.md5(p_node_id)::uuid;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    as_of := p_as_of;
    known_at := p_known_at;
    IF p_round IS NOT NULL OR p_snapshot IS NOT NULL THEN
        SELECT c.as_of, c.known_at INTO as_of, known_at
          FROM memory._read_clock(p_tenant_id, p_simulation_id, p_as_of, p_known_at, p_round, p_snapshot) AS c;
    END IF;
    as_of := COALESCE(as_of, pg_catalog.now());
    known_at := CASE WHEN known_at < pg_catalog.now() THEN known_at END;
    PERFORM memory._check_limit('list_elements', 'p_edge_types', pg_catalog.cardinality(p_edge_types));
    PERFORM memory._not_null(p_node_id, 'p_node_id', 'pass the upstream id of the start node');
    PERFORM memory._not_null(p_direction, 'p_direction', 'pass ''out'', ''in'' or ''both''');
    IF p_direction NOT IN ('out', 'in', 'both') THEN
        RAISE EXCEPTION 'unknown direction %', pg_catalog.quote_literal(memory._quote(p_direction))
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass ''out'', ''in'' or ''both''';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM memory.nodes AS n
                    WHERE known_at IS NULL AND n.tenant_id = p_tenant_id
                      AND n.simulation_id = p_simulation_id AND n.node_key = v_start
                   UNION ALL
                   SELECT 1 FROM memory._known(NULL::memory.nodes, p_tenant_id, p_simulation_id, known_at) AS n
                    WHERE known_at IS NOT NULL AND n.node_key = v_start) THEN
        RAISE EXCEPTION 'unknown node % in simulation %', memory._quote(p_node_id), p_simulation_id
            USING ERRCODE = 'no_data_found', HINT = 'list the simulation''s nodes with memory.nodes_by_type()';
    END IF;
    go_out := p_direction IN ('out', 'both');
    go_in := p_direction IN ('in', 'both');
    RETURN NEXT;
END
$fn$;

COMMENT ON FUNCTION memory._walk_start(uuid, uuid, text, text[], text, timestamptz, timestamptz, integer, text) IS 'Internal: a walk''s grant, clocks, checks and start node, and the directions it follows';
GRANT EXECUTE ON FUNCTION memory._walk_start(uuid, uuid, text, text[], text, timestamptz, timestamptz, integer, text) TO memory_reader;
