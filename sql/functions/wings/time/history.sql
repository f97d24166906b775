-- The versions of one node, edge or episode (p_kind: 'node', 'edge', 'episode', or the
-- record kind's plural), oldest first: each with the interval it was the memory's word
-- (recorded_from, recorded_to; NULL for the version it holds now), how it ended ('updated',
-- 'removed'; 'current' for the version held now), the import attempt whose promote ended
-- it (NULL for an upsert) and its fields (without the vector). An unchanged replay writes
-- no version. Unknown kind: 22023; an id with no version: P0002.
CREATE OR REPLACE FUNCTION memory.history(p_tenant_id uuid, p_simulation_id uuid, p_kind text, p_id text)
RETURNS TABLE (version integer, recorded_from timestamptz, recorded_to timestamptz, change text,
               attempt_id uuid, data jsonb)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_kind memory.record_kind;
    v_hidden text[] := ARRAY['embedding', 'summary_embedding', 'words', 'tenant_id', 'simulation_id'];
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._not_null(p_kind, 'p_kind', 'pass ''node'', ''edge'' or ''episode''');
    PERFORM memory._not_null(p_id, 'p_id', 'pass the upstream id of the row');
    SELECT k.* INTO v_kind FROM memory._record_kinds() AS k
     WHERE p_kind IN (k.kind, k.item) AND k.kind IN ('nodes', 'edges', 'episodes');
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no history is kept for kind %', pg_catalog.quote_literal(memory._quote(p_kind))
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass ''node'', ''edge'' or ''episode''';
    END IF;

    RETURN QUERY EXECUTE pg_catalog.format(
        'SELECT (pg_catalog.row_number() OVER (ORDER BY v.recorded_from, v.seq NULLS LAST))::integer,'
        '       v.recorded_from, v.recorded_to, v.change, v.attempt_id, v.data'
        '  FROM (SELECT h.history_id AS seq, h.recorded_from, h.recorded_to, h.change, h.attempt_id, h.data - $4 AS data'
        '          FROM memory.row_history AS h'
        '         WHERE h.tenant_id = $1 AND h.simulation_id = $2 AND h.kind = %L AND h.row_id = $3'
        '        UNION ALL'
        '        SELECT NULL, r.updated_at, NULL::timestamptz, %L::text, NULL::uuid, pg_catalog.to_jsonb(r) - $4'
        '          FROM %s AS r'
        '         WHERE r.tenant_id = $1 AND r.simulation_id = $2 AND r.%I = $3) AS v'
        ' ORDER BY 1',
        v_kind.kind, 'current', v_kind.live, v_kind.id_column)
    USING p_tenant_id, p_simulation_id, p_id, v_hidden;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no % % in simulation %, now or before', v_kind.item, memory._quote(p_id), p_simulation_id
            USING ERRCODE = 'no_data_found', HINT = 'ids are the upstream ids (MiroFish uuids, episode ids)';
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory.history(uuid, uuid, text, text) IS 'The versions of a node, edge or episode across imports and upserts, with when each was the memory''s word';
GRANT EXECUTE ON FUNCTION memory.history(uuid, uuid, text, text) TO memory_reader;
