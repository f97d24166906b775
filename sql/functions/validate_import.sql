-- What stands between an import attempt and its commit, one row per problem (none: it can
-- commit): a count other than declared ('count_mismatch'), an edge whose endpoint is not
-- among the attempt's nodes ('dangling_edge'; not a problem when the attempt skips dangling
-- edges, then listed as 'skipped_edge'), a row staged without embedding whose content hash
-- matches no committed row ('missing_embedding').
CREATE OR REPLACE FUNCTION memory.validate_import(p_tenant_id uuid, p_attempt_id uuid)
RETURNS TABLE (problem text, kind text, item_id text, detail text)
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
-- Bulk, set-based work on rows the planner has no statistics for yet (a new attempt's):
-- a nested loop chosen on a guess of one row turns quadratic, hash joins never do.
SET enable_nestloop = off
AS $fn$
DECLARE
    v_attempt memory.import_attempts;
BEGIN
    v_attempt := memory._require_attempt(p_tenant_id, p_attempt_id, true);
    RETURN QUERY
    WITH staged AS (
        SELECT 'nodes' AS kind, (SELECT pg_catalog.count(*) FROM memory.staged_nodes AS s
                                  WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id) AS n
        UNION ALL
        SELECT 'edges', (SELECT pg_catalog.count(*) FROM memory.staged_edges AS s
                          WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id)
        UNION ALL
        SELECT 'episodes', (SELECT pg_catalog.count(*) FROM memory.staged_episodes AS s
                             WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id)
        UNION ALL
        SELECT 'profiles', (SELECT pg_catalog.count(*) FROM memory.staged_profiles AS s
                             WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id)
    )
    SELECT 'count_mismatch', st.kind, NULL::text,
           pg_catalog.format('declared %s, staged %s', v_attempt.declared ->> st.kind, st.n)
      FROM staged AS st
     WHERE v_attempt.declared ? st.kind AND (v_attempt.declared ->> st.kind)::bigint <> st.n
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
    UNION ALL
    SELECT 'missing_embedding', m.kind, m.id, 'staged without embedding; no committed row has its content hash'
      FROM (SELECT 'nodes' AS kind, s.node_id AS id FROM memory.staged_nodes AS s
             WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id
               AND s.embedding IS NULL AND s.content_hash IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM memory.nodes AS l
                                WHERE l.tenant_id = p_tenant_id AND l.simulation_id = v_attempt.simulation_id
                                  AND l.node_key = s.node_key AND l.content_hash = s.content_hash
                                  AND l.embedding IS NOT NULL)
            UNION ALL
            SELECT 'edges', s.edge_id FROM memory.staged_edges AS s
             WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id
               AND s.embedding IS NULL AND s.content_hash IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM memory.edges AS l
                                WHERE l.tenant_id = p_tenant_id AND l.simulation_id = v_attempt.simulation_id
                                  AND l.edge_key = s.edge_key AND l.content_hash = s.content_hash
                                  AND l.embedding IS NOT NULL)
            UNION ALL
            SELECT 'episodes', s.episode_id FROM memory.staged_episodes AS s
             WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id
               AND s.embedding IS NULL AND s.content_hash IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM memory.episodes AS l
                                WHERE l.tenant_id = p_tenant_id AND l.simulation_id = v_attempt.simulation_id
                                  AND l.episode_key = s.episode_key AND l.content_hash = s.content_hash
                                  AND l.embedding IS NOT NULL)) AS m
     ORDER BY 1, 2, 3;
END
$fn$;

COMMENT ON FUNCTION memory.validate_import(uuid, uuid) IS
    'Problems that stop an import attempt from committing: count mismatches, dangling edges, missing embeddings';
REVOKE ALL ON FUNCTION memory.validate_import(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.validate_import(uuid, uuid) TO memory_writer;
