-- Drop the staged rows of the given attempts.
CREATE OR REPLACE FUNCTION memory._discard_staged(p_tenant_id uuid, p_attempt_ids uuid[])
RETURNS void
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    DELETE FROM memory.staged_edges AS s
     WHERE s.tenant_id = p_tenant_id AND s.attempt_id = ANY (p_attempt_ids);
    DELETE FROM memory.staged_nodes AS s
     WHERE s.tenant_id = p_tenant_id AND s.attempt_id = ANY (p_attempt_ids);
    DELETE FROM memory.staged_episodes AS s
     WHERE s.tenant_id = p_tenant_id AND s.attempt_id = ANY (p_attempt_ids);
    DELETE FROM memory.staged_profiles AS s
     WHERE s.tenant_id = p_tenant_id AND s.attempt_id = ANY (p_attempt_ids);
END
$fn$;

COMMENT ON FUNCTION memory._discard_staged(uuid, uuid[]) IS 'Internal: drop the staged rows of import attempts';
REVOKE ALL ON FUNCTION memory._discard_staged(uuid, uuid[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._discard_staged(uuid, uuid[]) TO memory_writer;
