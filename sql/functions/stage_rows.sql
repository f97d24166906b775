-- Move the rows of this session's staging tables (see memory.open_staging) into an import
-- attempt, after checking them: a required field missing, a zero vector or a key staged
-- twice fails the call with 22023 naming the position (and for a key, both positions);
-- nothing of the call is kept then. Returns how many rows of each kind moved.
CREATE OR REPLACE FUNCTION memory.stage_rows(p_tenant_id uuid, p_attempt_id uuid)
RETURNS TABLE (nodes bigint, edges bigint, episodes bigint, profiles bigint)
LANGUAGE plpgsql
VOLATILE
SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
-- Bulk, set-based work on rows the planner has no statistics for yet (a new attempt's):
-- a nested loop chosen on a guess of one row turns quadratic, hash joins never do.
SET enable_nestloop = off
AS $fn$
DECLARE
    v_attempt  memory.import_attempts;
    v_kind     text;
    v_key      text;
    v_first    integer;
    v_second   integer;
    v_problem  text;
    v_nodes    bigint;
    v_edges    bigint;
    v_episodes bigint;
    v_profiles bigint;
BEGIN
    v_attempt := memory._require_attempt(p_tenant_id, p_attempt_id, true);
    IF pg_catalog.to_regclass('pg_temp.stage_nodes') IS NULL THEN
        RAISE EXCEPTION 'this session has no staging tables'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'call memory.open_staging() and fill pg_temp.stage_* first';
    END IF;

    -- Required fields and vectors, first problem by kind and position.
    SELECT p.kind, p.position, p.problem INTO v_kind, v_first, v_problem
      FROM (SELECT 'node' AS kind, s.position,
                   CASE WHEN s.node_id IS NULL OR s.node_id = '' THEN 'node_id is missing'
                        WHEN s.name IS NULL THEN 'name is missing'
                        WHEN s.type IS NULL THEN 'type is missing'
                        WHEN pg_catalog.length(s.type) > 200 THEN 'type is longer than 200 characters'
                        WHEN public.vector_norm(s.embedding) = 0 THEN 'embedding is the zero vector' END AS problem
              FROM pg_temp.stage_nodes AS s
            UNION ALL
            SELECT 'edge', s.position,
                   CASE WHEN s.edge_id IS NULL OR s.edge_id = '' THEN 'edge_id is missing'
                        WHEN s.type IS NULL THEN 'type is missing'
                        WHEN pg_catalog.length(s.type) > 200 THEN 'type is longer than 200 characters'
                        WHEN s.source_id IS NULL THEN 'source_id is missing'
                        WHEN s.target_id IS NULL THEN 'target_id is missing'
                        WHEN public.vector_norm(s.embedding) = 0 THEN 'embedding is the zero vector' END
              FROM pg_temp.stage_edges AS s
            UNION ALL
            SELECT 'episode', s.position,
                   CASE WHEN s.episode_id IS NULL OR s.episode_id = '' THEN 'episode_id is missing'
                        WHEN s.action_type IS NULL THEN 'action_type is missing'
                        WHEN public.vector_norm(s.embedding) = 0 THEN 'embedding is the zero vector' END
              FROM pg_temp.stage_episodes AS s
            UNION ALL
            SELECT 'profile', s.position,
                   CASE WHEN s.platform IS NULL THEN 'platform is missing'
                        WHEN pg_catalog.length(s.platform) > 200 THEN 'platform is longer than 200 characters'
                        WHEN s.agent_id IS NULL THEN 'agent_id is missing' END
              FROM pg_temp.stage_profiles AS s) AS p
     WHERE p.problem IS NOT NULL OR p.position IS NULL
     ORDER BY p.kind, p.position
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% at position %: %', v_kind, v_first, COALESCE(v_problem, 'position is missing')
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'nothing of this batch was staged; fix the row and stage the batch again';
    END IF;

    -- A key staged twice, in this batch or across batches of the attempt.
    SELECT d.kind, d.key, d.first_position, d.second_position
      INTO v_kind, v_key, v_first, v_second
      FROM (SELECT 'node' AS kind, k.key, pg_catalog.min(k.position) AS first_position,
                   (pg_catalog.array_agg(k.position ORDER BY k.position))[2] AS second_position
              FROM (SELECT s.node_id AS key, s.position FROM pg_temp.stage_nodes AS s
                    UNION ALL
                    SELECT st.node_id, st.position FROM memory.staged_nodes AS st
                      JOIN pg_temp.stage_nodes AS s ON st.node_key = pg_catalog.md5(s.node_id)::uuid
                     WHERE st.tenant_id = p_tenant_id AND st.attempt_id = p_attempt_id) AS k
             GROUP BY k.key HAVING pg_catalog.count(*) > 1
            UNION ALL
            SELECT 'edge', k.key, pg_catalog.min(k.position),
                   (pg_catalog.array_agg(k.position ORDER BY k.position))[2]
              FROM (SELECT s.edge_id AS key, s.position FROM pg_temp.stage_edges AS s
                    UNION ALL
                    SELECT st.edge_id, st.position FROM memory.staged_edges AS st
                      JOIN pg_temp.stage_edges AS s ON st.edge_key = pg_catalog.md5(s.edge_id)::uuid
                     WHERE st.tenant_id = p_tenant_id AND st.attempt_id = p_attempt_id) AS k
             GROUP BY k.key HAVING pg_catalog.count(*) > 1
            UNION ALL
            SELECT 'episode', k.key, pg_catalog.min(k.position),
                   (pg_catalog.array_agg(k.position ORDER BY k.position))[2]
              FROM (SELECT s.episode_id AS key, s.position FROM pg_temp.stage_episodes AS s
                    UNION ALL
                    SELECT st.episode_id, st.position FROM memory.staged_episodes AS st
                      JOIN pg_temp.stage_episodes AS s ON st.episode_key = pg_catalog.md5(s.episode_id)::uuid
                     WHERE st.tenant_id = p_tenant_id AND st.attempt_id = p_attempt_id) AS k
             GROUP BY k.key HAVING pg_catalog.count(*) > 1
            UNION ALL
            SELECT 'profile', k.key, pg_catalog.min(k.position),
                   (pg_catalog.array_agg(k.position ORDER BY k.position))[2]
              FROM (SELECT s.platform || '/' || s.agent_id AS key, s.position
                      FROM pg_temp.stage_profiles AS s
                    UNION ALL
                    SELECT st.platform || '/' || st.agent_id, st.position
                      FROM memory.staged_profiles AS st
                      JOIN pg_temp.stage_profiles AS s
                        ON s.platform = st.platform AND s.agent_id = st.agent_id
                     WHERE st.tenant_id = p_tenant_id AND st.attempt_id = p_attempt_id) AS k
             GROUP BY k.key HAVING pg_catalog.count(*) > 1) AS d
     ORDER BY d.kind, d.first_position
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '% id % appears twice, at positions % and %', v_kind, v_key, v_first, v_second
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'each row of an import needs its own id; nothing of this batch was staged';
    END IF;

    INSERT INTO memory.staged_nodes
           (tenant_id, attempt_id, node_id, position, name, type, labels, summary, attributes,
            embedding, embedding_model, content_hash)
    SELECT p_tenant_id, p_attempt_id, s.node_id, s.position, s.name, s.type,
           COALESCE(s.labels, '{}'), s.summary, COALESCE(s.attributes, '{}'), s.embedding,
           CASE WHEN s.embedding IS NOT NULL
                THEN COALESCE(s.embedding_model, 'sentence-transformers/all-MiniLM-L6-v2') END,
           s.content_hash
      FROM pg_temp.stage_nodes AS s;
    GET DIAGNOSTICS v_nodes = ROW_COUNT;

    INSERT INTO memory.staged_edges
           (tenant_id, attempt_id, edge_id, position, type, source_id, target_id, fact,
            attributes, valid_at, invalid_at, embedding, embedding_model, content_hash)
    SELECT p_tenant_id, p_attempt_id, s.edge_id, s.position, s.type, s.source_id, s.target_id,
           s.fact, COALESCE(s.attributes, '{}'), s.valid_at, s.invalid_at, s.embedding,
           CASE WHEN s.embedding IS NOT NULL
                THEN COALESCE(s.embedding_model, 'sentence-transformers/all-MiniLM-L6-v2') END,
           s.content_hash
      FROM pg_temp.stage_edges AS s;
    GET DIAGNOSTICS v_edges = ROW_COUNT;

    INSERT INTO memory.staged_episodes
           (tenant_id, attempt_id, episode_id, position, agent_id, agent_name, platform, round,
            action_type, content, metadata, occurred_at, embedding, embedding_model, content_hash)
    SELECT p_tenant_id, p_attempt_id, s.episode_id, s.position, s.agent_id, s.agent_name,
           s.platform, s.round, s.action_type, s.content, COALESCE(s.metadata, '{}'),
           s.occurred_at, s.embedding,
           CASE WHEN s.embedding IS NOT NULL
                THEN COALESCE(s.embedding_model, 'sentence-transformers/all-MiniLM-L6-v2') END,
           s.content_hash
      FROM pg_temp.stage_episodes AS s;
    GET DIAGNOSTICS v_episodes = ROW_COUNT;

    INSERT INTO memory.staged_profiles
           (tenant_id, attempt_id, platform, agent_id, position, name, username, bio, persona,
            attributes)
    SELECT p_tenant_id, p_attempt_id, s.platform, s.agent_id, s.position, s.name, s.username,
           s.bio, s.persona, COALESCE(s.attributes, '{}')
      FROM pg_temp.stage_profiles AS s;
    GET DIAGNOSTICS v_profiles = ROW_COUNT;

    TRUNCATE pg_temp.stage_nodes, pg_temp.stage_edges, pg_temp.stage_episodes,
             pg_temp.stage_profiles;
    RETURN QUERY SELECT v_nodes, v_edges, v_episodes, v_profiles;
END
$fn$;

COMMENT ON FUNCTION memory.stage_rows(uuid, uuid) IS
    'Check the session''s staging tables and move their rows into an import attempt; returns counts';
REVOKE ALL ON FUNCTION memory.stage_rows(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.stage_rows(uuid, uuid) TO memory_writer;
