-- Whether a simulation holds any committed row of a record kind.
CREATE OR REPLACE FUNCTION memory._kind_held(p_kind text, p_tenant_id uuid, p_simulation_id uuid) RETURNS boolean
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_held boolean;
BEGIN
    EXECUTE pg_catalog.format(
        'SELECT EXISTS (SELECT 1 FROM %s AS l WHERE l.tenant_id = $1 AND l.simulation_id = $2)',
        (memory._kind(p_kind)).live)
    INTO v_held USING p_tenant_id, p_simulation_id;
    RETURN v_held;
END
$fn$;

COMMENT ON FUNCTION memory._kind_held(text, uuid, uuid) IS 'Internal: whether a simulation holds any committed row of a record kind';
REVOKE ALL ON FUNCTION memory._kind_held(text, uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._kind_held(text, uuid, uuid) TO memory_writer;
