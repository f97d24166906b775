-- What stands between an import attempt and its commit in one record kind: a staged count
-- other than the attempt declared ('count_mismatch'), rows staged without a vector whose
-- content hash matches no committed row of the simulation ('missing_embedding'), and of the
-- edges, those whose endpoint is not among the attempt's nodes ('dangling_edge'; when the
-- attempt skips dangling edges, 'skipped_edge', which stops nothing). Each is a statement
-- of its own, filtered by the tenant: on Citus each goes to the tenant's shards (inside a
-- statement already sent there, a query of its own would be a nested distributed query).
CREATE OR REPLACE FUNCTION memory._kind_problems(p_kind text, p_attempt memory.import_attempts)
RETURNS TABLE (problem text, item_id text, detail text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_staged bigint;
    v_kind   memory.record_kind := memory._kind(p_kind);
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
    IF p_kind = 'edges' THEN
        RETURN QUERY
        SELECT CASE WHEN p_attempt.skip_dangling THEN 'skipped_edge' ELSE 'dangling_edge' END, e.edge_id,
               pg_catalog.format('%s node %s is not in the import',
                                 CASE WHEN sn.node_id IS NULL THEN 'source' ELSE 'target' END,
                                 CASE WHEN sn.node_id IS NULL THEN e.source_id ELSE e.target_id END)
          FROM memory.staged_edges AS e
          LEFT JOIN memory.staged_nodes AS sn
            ON sn.tenant_id = p_attempt.tenant_id AND sn.attempt_id = p_attempt.attempt_id
           AND sn.node_key = pg_catalog.md5(e.source_id)::uuid
          LEFT JOIN memory.staged_nodes AS tn
            ON tn.tenant_id = p_attempt.tenant_id AND tn.attempt_id = p_attempt.attempt_id
           AND tn.node_key = pg_catalog.md5(e.target_id)::uuid
         WHERE e.tenant_id = p_attempt.tenant_id AND e.attempt_id = p_attempt.attempt_id
           AND (sn.node_id IS NULL OR tn.node_id IS NULL);
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._kind_problems(text, memory.import_attempts) IS 'Internal: count mismatches, missing embeddings and dangling edges of one record kind of an import attempt';
GRANT EXECUTE ON FUNCTION memory._kind_problems(text, memory.import_attempts) TO memory_writer;
