-- One record kind by name (memory._record_kinds), or 22023 for a name that is none: the
-- write path's functions take the kind as an argument and build their statements from
-- the catalog, so the name is checked before anything is built from it.
CREATE OR REPLACE FUNCTION memory._kind(p_kind text) RETURNS memory.record_kind
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind memory.record_kind;
BEGIN
    SELECT * INTO v_kind FROM memory._record_kinds() AS k WHERE k.kind = p_kind;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown record kind %', pg_catalog.left(p_kind, 40)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'one of ' || (SELECT pg_catalog.string_agg(k.kind, ', ' ORDER BY k.ord)
                                          FROM memory._record_kinds() AS k);
    END IF;
    RETURN v_kind;
END
$fn$;

COMMENT ON FUNCTION memory._kind(text) IS 'Internal: a record kind by name (22023 for an unknown one)';
GRANT EXECUTE ON FUNCTION memory._kind(text) TO memory_reader, memory_writer;
