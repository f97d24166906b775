-- Delete the committed rows of a record kind in a simulation that an import attempt does
-- not have, within what the attempt replaces: rows an import wrote (source 'import'; a row
-- written through upsert_* is never removed by an import), and where p_platforms is given,
-- only rows of those platforms (an import that carries one platform's actions keeps the
-- other's). Returns how many went.
-- SECURITY DEFINER: tenant roles hold no DELETE (it would let them LOCK TABLE in modes that
-- block every tenant); memory_owner does, under forced RLS, for the tenant entered first.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the grant of memory._acting_role() (the SET ROLE role, else the session
-- user) and the call's tenant setting, which memory._enter_tenant makes in this call; its
-- SET clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._prune(p_kind text, p_tenant_id uuid, p_simulation_id uuid,
                                         p_attempt_id uuid, p_platforms text[])
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_deleted bigint;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_platforms IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM memory._kind_columns(p_kind) AS c WHERE c.col = 'platform') THEN
        RAISE EXCEPTION '% have no platform to narrow an import''s scope by', p_kind
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'map the kind to null in the scope: the import replaces all of it';
    END IF;
    EXECUTE pg_catalog.format(
        'DELETE FROM %s AS l WHERE l.tenant_id = $1 AND l.simulation_id = $2 AND l.source = %L'
        ' AND NOT EXISTS (SELECT 1 FROM %s AS s WHERE s.tenant_id = $1 AND s.attempt_id = $3 AND %s)%s',
        (memory._kind(p_kind)).live, 'import', (memory._kind(p_kind)).staged,
        memory._kind_key(p_kind, 's', 'l'),
        CASE WHEN p_platforms IS NOT NULL THEN ' AND l.platform = ANY ($4)' ELSE '' END)
    USING p_tenant_id, p_simulation_id, p_attempt_id, p_platforms;
    GET DIAGNOSTICS v_deleted = ROW_COUNT;
    RETURN v_deleted;
END
$fn$;

COMMENT ON FUNCTION memory._prune(text, uuid, uuid, uuid, text[]) IS 'Internal: delete a simulation''s rows of a record kind that an import attempt does not have (SECURITY DEFINER: tenant roles hold no DELETE)';
GRANT EXECUTE ON FUNCTION memory._prune(text, uuid, uuid, uuid, text[]) TO memory_writer;
