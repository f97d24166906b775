-- What stands between an import attempt and its commit in one record kind: a staged count
-- other than the attempt declared ('count_mismatch'), and rows staged without a vector
-- whose content hash matches no committed row of the simulation ('missing_embedding').
CREATE OR REPLACE FUNCTION memory._kind_problems(p_kind text, p_attempt memory.import_attempts)
RETURNS TABLE (problem text, item_id text, detail text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind   memory.record_kind := memory._kind(p_kind);
    v_staged bigint;
BEGIN
    EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s AS s WHERE s.tenant_id = $1 AND s.attempt_id = $2',
                              v_kind.staged)
       INTO v_staged USING p_attempt.tenant_id, p_attempt.attempt_id;
    IF p_attempt.declared ? p_kind AND (p_attempt.declared ->> p_kind)::bigint <> v_staged THEN
        RETURN QUERY SELECT 'count_mismatch'::text, NULL::text,
               pg_catalog.format('declared %s, staged %s', p_attempt.declared ->> p_kind, v_staged);
    END IF;
    IF EXISTS (SELECT 1 FROM memory._kind_columns(p_kind) AS c WHERE c.col = 'content_hash') THEN
        RETURN QUERY EXECUTE pg_catalog.format(
            'SELECT %L::text, s.%I, %L::text FROM %s AS s'
            ' WHERE s.tenant_id = $1 AND s.attempt_id = $2'
            '   AND s.embedding IS NULL AND s.content_hash IS NOT NULL'
            '   AND NOT EXISTS (SELECT 1 FROM %s AS l WHERE l.tenant_id = $1 AND l.simulation_id = $3'
            '                      AND %s AND l.content_hash = s.content_hash AND l.embedding IS NOT NULL)',
            'missing_embedding', v_kind.id_column,
            'staged without embedding; no committed row has its content hash',
            v_kind.staged, v_kind.live, memory._kind_key(p_kind, 'l', 's'))
        USING p_attempt.tenant_id, p_attempt.attempt_id, p_attempt.simulation_id;
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._kind_problems(text, memory.import_attempts) IS 'Internal: count mismatches and missing embeddings of one record kind of an import attempt';
GRANT EXECUTE ON FUNCTION memory._kind_problems(text, memory.import_attempts) TO memory_writer;
