-- Remove from an import attempt the staged edges whose source or target node the attempt
-- does not stage (commit_import of an attempt that skips dangling edges); returns their
-- ids in order, NULL when there are none.
-- SECURITY DEFINER: writers hold no DELETE on the staged tables (it would let them LOCK
-- them in modes that stop every tenant); the tenant is entered first, as the session user.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the grant of memory._acting_role() (the SET ROLE role, else the session
-- user) and the call's tenant setting, which memory._enter_tenant makes in this call; its
-- SET clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._skip_dangling(p_tenant_id uuid, p_attempt_id uuid) RETURNS text[]
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_skipped text[];
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    WITH gone AS (
        DELETE FROM memory.staged_edges AS e
         WHERE e.tenant_id = p_tenant_id AND e.attempt_id = p_attempt_id
           AND (NOT EXISTS (SELECT 1 FROM memory.staged_nodes AS n
                             WHERE n.tenant_id = p_tenant_id AND n.attempt_id = p_attempt_id
                               AND n.node_key = pg_catalog.md5(e.source_id)::uuid)
             OR NOT EXISTS (SELECT 1 FROM memory.staged_nodes AS n
                             WHERE n.tenant_id = p_tenant_id AND n.attempt_id = p_attempt_id
                               AND n.node_key = pg_catalog.md5(e.target_id)::uuid))
        RETURNING e.edge_id)
    SELECT pg_catalog.array_agg(gone.edge_id ORDER BY gone.edge_id) INTO v_skipped FROM gone;
    RETURN v_skipped;
END
$fn$;

COMMENT ON FUNCTION memory._skip_dangling(uuid, uuid) IS 'Internal: drop an attempt''s staged edges to nodes it does not stage, returning their ids (SECURITY DEFINER: writers hold no DELETE)';
GRANT EXECUTE ON FUNCTION memory._skip_dangling(uuid, uuid) TO memory_writer;
