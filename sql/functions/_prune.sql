-- Delete the committed rows of a record kind in a simulation that an import attempt does
-- not have: after a promote the simulation holds exactly the attempt's rows. Returns how
-- many went.
-- SECURITY DEFINER: tenant roles hold no DELETE (it would let them LOCK TABLE in modes that
-- block every tenant); memory_owner does, under forced RLS, for the tenant entered first.
CREATE OR REPLACE FUNCTION memory._prune(p_kind text, p_tenant_id uuid, p_simulation_id uuid,
                                         p_attempt_id uuid)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_deleted bigint;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    EXECUTE pg_catalog.format(
        'DELETE FROM %s AS l WHERE l.tenant_id = $1 AND l.simulation_id = $2'
        ' AND NOT EXISTS (SELECT 1 FROM %s AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3 AND %s)',
        (memory._kind(p_kind)).live, (memory._kind(p_kind)).staged, memory._kind_key(p_kind, 's', 'l'))
    USING p_tenant_id, p_simulation_id, p_attempt_id;
    GET DIAGNOSTICS v_deleted = ROW_COUNT;
    RETURN v_deleted;
END
$fn$;

COMMENT ON FUNCTION memory._prune(text, uuid, uuid, uuid) IS 'Internal: delete a simulation''s rows of a record kind that an import attempt does not have (SECURITY DEFINER: tenant roles hold no DELETE)';
REVOKE ALL ON FUNCTION memory._prune(text, uuid, uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._prune(text, uuid, uuid, uuid) TO memory_writer;
