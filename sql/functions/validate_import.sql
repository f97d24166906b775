-- What stands between an import attempt and its commit, one row per problem (none: it can
-- commit): a count other than declared ('count_mismatch'), an edge whose endpoint is not
-- among the attempt's nodes ('dangling_edge'; not a problem when the attempt skips dangling
-- edges, then listed as 'skipped_edge'), a row staged without embedding whose content hash
-- matches no committed row ('missing_embedding').
CREATE OR REPLACE FUNCTION memory.validate_import(p_tenant_id uuid, p_attempt_id uuid)
RETURNS TABLE (problem text, kind text, item_id text, detail text)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
-- Bulk, set-based work on rows the planner has no statistics for yet (a new attempt's):
-- a nested loop chosen on a guess of one row turns quadratic, hash joins never do.
SET enable_nestloop = off
AS $fn$
DECLARE
    v_attempt memory.import_attempts := memory._require_attempt(p_tenant_id, p_attempt_id, true);
BEGIN
    RETURN QUERY
    SELECT p.problem, k.kind, p.item_id, p.detail
      FROM memory._record_kinds() AS k
     CROSS JOIN LATERAL memory._kind_problems(k.kind, v_attempt) AS p
    UNION ALL
    SELECT CASE WHEN v_attempt.skip_dangling THEN 'skipped_edge' ELSE 'dangling_edge' END,
           'edges', e.edge_id,
           pg_catalog.format('%s node %s is not in the import',
                             CASE WHEN sn.node_id IS NULL THEN 'source' ELSE 'target' END,
                             CASE WHEN sn.node_id IS NULL THEN e.source_id ELSE e.target_id END)
      FROM memory.staged_edges AS e
      LEFT JOIN memory.staged_nodes AS sn
        ON sn.tenant_id = p_tenant_id AND sn.attempt_id = p_attempt_id
       AND sn.node_key = pg_catalog.md5(e.source_id)::uuid
      LEFT JOIN memory.staged_nodes AS tn
        ON tn.tenant_id = p_tenant_id AND tn.attempt_id = p_attempt_id
       AND tn.node_key = pg_catalog.md5(e.target_id)::uuid
     WHERE e.tenant_id = p_tenant_id AND e.attempt_id = p_attempt_id
       AND (sn.node_id IS NULL OR tn.node_id IS NULL)
     ORDER BY 1, 2, 3;
END
$fn$;

COMMENT ON FUNCTION memory.validate_import(uuid, uuid) IS 'Problems that stop an import attempt from committing: count mismatches, dangling edges, missing embeddings';
GRANT EXECUTE ON FUNCTION memory.validate_import(uuid, uuid) TO memory_writer;
