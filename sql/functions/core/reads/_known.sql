-- The rows of a record kind in a simulation as the memory held them at p_known_at (record
-- time): the committed rows written at or before it and unchanged since, and the versions
-- of memory.row_history that were the memory's word then (kept without their vectors).
-- The kind is that of p_row's type: memory._known(NULL::memory.edges, ...). The caller has
-- entered the tenant (row-level security admits its rows only).
CREATE OR REPLACE FUNCTION memory._known(p_row anyelement, p_tenant_id uuid, p_simulation_id uuid,
                                         p_known_at timestamptz)
RETURNS SETOF anyelement
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind memory.record_kind := memory._kind(
        (SELECT c.relname FROM pg_catalog.pg_class AS c
          WHERE c.reltype = pg_catalog.pg_typeof(p_row)::oid
            AND c.relnamespace = 'memory'::pg_catalog.regnamespace));
BEGIN
    RETURN QUERY EXECUTE pg_catalog.format(
        'SELECT r.* FROM %1$s AS r'
        ' WHERE r.tenant_id = $1 AND r.simulation_id = $2 AND r.updated_at <= $3'
        ' UNION ALL'
        ' SELECT r.*'
        '   FROM memory.row_history AS h'
        '  CROSS JOIN LATERAL pg_catalog.jsonb_populate_record(NULL::%1$s, h.data) AS r'
        '  WHERE h.tenant_id = $1 AND h.simulation_id = $2 AND h.kind = %2$L'
        '    AND h.recorded_from <= $3 AND h.recorded_to > $3',
        v_kind.live, v_kind.kind)
    USING p_tenant_id, p_simulation_id, p_known_at;
END
$fn$;

COMMENT ON FUNCTION memory._known(anyelement, uuid, uuid, timestamptz) IS 'Internal: the rows of a record kind in a simulation as the memory held them at a moment (record time)';
GRANT EXECUTE ON FUNCTION memory._known(anyelement, uuid, uuid, timestamptz) TO memory_reader;
