-- The content hash of every committed row of a simulation that has an embedding: an
-- importer stages rows whose (kind, id, hash) appear here without a vector, and commit keeps
-- the stored one, so unchanged texts are never embedded again.
CREATE OR REPLACE FUNCTION memory.committed_hashes(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (kind text, item_id text, content_hash bytea)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_kind memory.record_kind;
BEGIN
    PERFORM memory._enter_simulation(p_tenant_id, p_simulation_id);
    FOR v_kind IN SELECT k.* FROM memory._record_kinds() AS k
                   WHERE EXISTS (SELECT 1 FROM memory._kind_columns(k.kind) AS c WHERE c.col = 'content_hash')
                   ORDER BY k.ord LOOP
        RETURN QUERY EXECUTE pg_catalog.format(
            'SELECT %L::text, l.%I, l.content_hash FROM %s AS l'
            ' WHERE l.tenant_id = $1 AND l.simulation_id = $2'
            '   AND l.content_hash IS NOT NULL AND l.embedding IS NOT NULL',
            v_kind.kind, v_kind.id_column, v_kind.live)
        USING p_tenant_id, p_simulation_id;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION memory.committed_hashes(uuid, uuid) IS 'Content hashes of a simulation''s committed, embedded rows (for embedding only what changed)';
GRANT EXECUTE ON FUNCTION memory.committed_hashes(uuid, uuid) TO memory_writer;
