-- Drop the staged rows of the given attempts.
-- SECURITY DEFINER: tenant roles hold no DELETE (it would let them LOCK TABLE in modes that
-- block every tenant); memory_owner does, under forced RLS, for the tenant entered first.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the grant of memory._acting_role() (the SET ROLE role, else the session
-- user) and the call's tenant setting, which memory._enter_tenant makes in this call; its
-- SET clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._discard_staged(p_tenant_id uuid, p_attempt_ids uuid[]) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind memory.record_kind;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    FOR v_kind IN SELECT * FROM memory._record_kinds() LOOP
        EXECUTE pg_catalog.format('DELETE FROM %s AS s WHERE s.tenant_id = $1 AND s.attempt_id = ANY ($2)',
                                  v_kind.staged)
        USING p_tenant_id, p_attempt_ids;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION memory._discard_staged(uuid, uuid[]) IS 'Internal: drop the staged rows of import attempts (SECURITY DEFINER: tenant roles hold no DELETE)';
GRANT EXECUTE ON FUNCTION memory._discard_staged(uuid, uuid[]) TO memory_writer;
