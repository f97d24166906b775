-- The content hash of every committed row of a simulation that has an embedding: an
-- importer stages rows whose (kind, id, hash) appear here without a vector, and commit keeps
-- the stored one, so unchanged texts are never embedded again.
CREATE OR REPLACE FUNCTION memory.committed_hashes(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (kind text, item_id text, content_hash bytea)
LANGUAGE plpgsql
STABLE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
-- STABLE: reads only; _enter_tenant sets a transaction-local setting (the call's tenant).
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_simulation_id IS NULL THEN
        RAISE EXCEPTION 'p_simulation_id must not be NULL'
            USING ERRCODE = 'null_value_not_allowed', HINT = 'pass the simulation''s uuid';
    END IF;
    RETURN QUERY
    SELECT 'nodes'::text, n.node_id, n.content_hash FROM memory.nodes AS n
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
       AND n.content_hash IS NOT NULL AND n.embedding IS NOT NULL
    UNION ALL
    SELECT 'edges', e.edge_id, e.content_hash FROM memory.edges AS e
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
       AND e.content_hash IS NOT NULL AND e.embedding IS NOT NULL
    UNION ALL
    SELECT 'episodes', e.episode_id, e.content_hash FROM memory.episodes AS e
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
       AND e.content_hash IS NOT NULL AND e.embedding IS NOT NULL;
END
$fn$;

COMMENT ON FUNCTION memory.committed_hashes(uuid, uuid) IS
    'Content hashes of a simulation''s committed, embedded rows (for embedding only what changed)';
REVOKE ALL ON FUNCTION memory.committed_hashes(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.committed_hashes(uuid, uuid) TO memory_writer;
