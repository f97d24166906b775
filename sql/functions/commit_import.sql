-- Validate an import attempt and promote it whole, atomically: afterwards the simulation
-- holds exactly the attempt's rows. Rows that did not change are not written; rows staged
-- without a vector keep the committed one with the same content hash; rows absent from the
-- attempt are deleted. Readers see the previous committed state until this transaction
-- commits, then the new one.
-- Refuses (nothing promoted, the attempt stays open): counts other than declared (21000),
-- an edge to a node not in the import unless the attempt skips dangling edges (23503),
-- a row without vector and no committed one to keep (22004).
CREATE OR REPLACE FUNCTION memory.commit_import(p_tenant_id uuid, p_attempt_id uuid)
RETURNS TABLE (kind text, inserted bigint, updated bigint, unchanged bigint, deleted bigint,
               skipped bigint)
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
    v_sim      uuid;
    v_problems jsonb;
    v_problem  jsonb;
    v_list     text;
    v_count    bigint;
    v_skipped  text[];
    v_result   jsonb := '{}'::jsonb;
    v_ins      bigint;
    v_upd      bigint;
    v_same     bigint;
    v_del      bigint;
    -- Which kinds the simulation held before this promote: where it held none, every row
    -- afterwards is the attempt's, and the pass that drops rows absent from it is skipped.
    -- Read under the simulation's row lock, which every other write to its rows waits for
    -- (their foreign-key checks take KEY SHARE on it).
    v_had_nodes    boolean;
    v_had_edges    boolean;
    v_had_episodes boolean;
    v_had_profiles boolean;
BEGIN
    v_attempt := memory._require_attempt(p_tenant_id, p_attempt_id, true);
    v_sim := v_attempt.simulation_id;
    -- One promote at a time per simulation; re-read the attempt under the lock.
    PERFORM 1 FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = v_sim FOR UPDATE;
    v_attempt := memory._require_attempt(p_tenant_id, p_attempt_id, true);
    v_had_nodes := EXISTS (SELECT 1 FROM memory.nodes AS l
                            WHERE l.tenant_id = p_tenant_id AND l.simulation_id = v_sim);
    v_had_edges := EXISTS (SELECT 1 FROM memory.edges AS l
                            WHERE l.tenant_id = p_tenant_id AND l.simulation_id = v_sim);
    v_had_episodes := EXISTS (SELECT 1 FROM memory.episodes AS l
                               WHERE l.tenant_id = p_tenant_id AND l.simulation_id = v_sim);
    v_had_profiles := EXISTS (SELECT 1 FROM memory.profiles AS l
                               WHERE l.tenant_id = p_tenant_id AND l.simulation_id = v_sim);

    SELECT COALESCE(pg_catalog.jsonb_agg(pg_catalog.to_jsonb(v) ORDER BY v.problem, v.item_id), '[]')
      INTO v_problems
      FROM memory.validate_import(p_tenant_id, p_attempt_id) AS v
     WHERE v.problem <> 'skipped_edge';

    SELECT p.value INTO v_problem FROM pg_catalog.jsonb_array_elements(v_problems) AS p
     WHERE p.value ->> 'problem' = 'count_mismatch' LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'import attempt % %: %', p_attempt_id, v_problem ->> 'kind', v_problem ->> 'detail'
            USING ERRCODE = 'cardinality_violation',
                  HINT = 'stage every row the import declared, or abort the attempt';
    END IF;

    SELECT pg_catalog.count(*),
           pg_catalog.string_agg((d.value ->> 'item_id') || ' (' || (d.value ->> 'detail') || ')', ', '
                                 ORDER BY d.rn) FILTER (WHERE d.rn <= 10)
      INTO v_count, v_list
      FROM (SELECT p.value, pg_catalog.row_number() OVER (ORDER BY p.value ->> 'item_id') AS rn
              FROM pg_catalog.jsonb_array_elements(v_problems) AS p
             WHERE p.value ->> 'problem' = 'dangling_edge') AS d;
    IF v_count > 0 THEN
        RAISE EXCEPTION 'import attempt %: % edges refer to nodes not in the import: %', p_attempt_id,
                v_count, v_list || CASE WHEN v_count > 10 THEN ', ...' ELSE '' END
            USING ERRCODE = 'foreign_key_violation',
                  HINT = 'import the missing nodes, or begin the import with p_skip_dangling => true';
    END IF;

    SELECT p.value INTO v_problem FROM pg_catalog.jsonb_array_elements(v_problems) AS p
     WHERE p.value ->> 'problem' = 'missing_embedding' LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'import attempt %: % % %', p_attempt_id, v_problem ->> 'kind',
                v_problem ->> 'item_id', v_problem ->> 'detail'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'stage the row with its embedding';
    END IF;

    -- Dangling edges of an attempt that skips them: leave them out, and say which.
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

    -- Nodes: upsert (before edges, which reference them).
    WITH src AS (
        SELECT s.node_id, s.name, s.type, s.labels, s.summary, s.attributes,
               COALESCE(s.embedding, l.embedding) AS embedding,
               CASE WHEN s.embedding IS NOT NULL THEN s.embedding_model ELSE l.embedding_model END
                   AS embedding_model,
               s.content_hash
          FROM memory.staged_nodes AS s
          LEFT JOIN memory.nodes AS l
            ON s.embedding IS NULL AND s.content_hash IS NOT NULL
           AND l.tenant_id = p_tenant_id AND l.simulation_id = v_sim
           AND l.node_key = s.node_key AND l.content_hash = s.content_hash
         WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id
    ), written AS (
        INSERT INTO memory.nodes AS n
               (tenant_id, simulation_id, node_id, name, type, labels, summary, attributes,
                embedding, embedding_model, content_hash)
        SELECT p_tenant_id, v_sim, src.node_id, src.name, src.type, src.labels, src.summary,
               src.attributes, src.embedding, src.embedding_model, src.content_hash
          FROM src
        ON CONFLICT (tenant_id, simulation_id, node_key) DO UPDATE
           SET name = excluded.name, type = excluded.type, labels = excluded.labels,
               summary = excluded.summary, attributes = excluded.attributes,
               embedding = excluded.embedding, embedding_model = excluded.embedding_model,
               content_hash = excluded.content_hash, updated_at = pg_catalog.now()
         WHERE (n.name, n.type, n.labels, n.summary, n.attributes, n.embedding::real[],
                n.embedding_model, n.content_hash)
               IS DISTINCT FROM
               (excluded.name, excluded.type, excluded.labels, excluded.summary,
                excluded.attributes, excluded.embedding::real[], excluded.embedding_model,
                excluded.content_hash)
        RETURNING (n.xmax = 0) AS was_inserted
    )
    SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),
           pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted)
      INTO v_ins, v_upd FROM written AS w;
    SELECT pg_catalog.count(*) - v_ins - v_upd INTO v_same FROM memory.staged_nodes AS s
     WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id;
    v_result := v_result || pg_catalog.jsonb_build_object('nodes', pg_catalog.jsonb_build_object(
        'inserted', v_ins, 'updated', v_upd, 'unchanged', v_same));

    -- Edges: upsert, then drop those the attempt does not have.
    WITH src AS (
        SELECT s.edge_id, s.type, s.source_id, s.target_id, s.fact, s.attributes, s.valid_at,
               s.invalid_at, COALESCE(s.embedding, l.embedding) AS embedding,
               CASE WHEN s.embedding IS NOT NULL THEN s.embedding_model ELSE l.embedding_model END
                   AS embedding_model,
               s.content_hash
          FROM memory.staged_edges AS s
          LEFT JOIN memory.edges AS l
            ON s.embedding IS NULL AND s.content_hash IS NOT NULL
           AND l.tenant_id = p_tenant_id AND l.simulation_id = v_sim
           AND l.edge_key = s.edge_key AND l.content_hash = s.content_hash
         WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id
    ), written AS (
        INSERT INTO memory.edges AS e
               (tenant_id, simulation_id, edge_id, type, source_id, target_id, fact, attributes,
                valid_at, invalid_at, embedding, embedding_model, content_hash)
        SELECT p_tenant_id, v_sim, src.edge_id, src.type, src.source_id, src.target_id, src.fact,
               src.attributes, src.valid_at, src.invalid_at, src.embedding, src.embedding_model,
               src.content_hash
          FROM src
        ON CONFLICT (tenant_id, simulation_id, edge_key) DO UPDATE
           SET type = excluded.type, source_id = excluded.source_id, target_id = excluded.target_id,
               fact = excluded.fact, attributes = excluded.attributes, valid_at = excluded.valid_at,
               invalid_at = excluded.invalid_at, embedding = excluded.embedding,
               embedding_model = excluded.embedding_model, content_hash = excluded.content_hash,
               updated_at = pg_catalog.now()
         WHERE (e.type, e.source_id, e.target_id, e.fact, e.attributes, e.valid_at, e.invalid_at,
                e.embedding::real[], e.embedding_model, e.content_hash)
               IS DISTINCT FROM
               (excluded.type, excluded.source_id, excluded.target_id, excluded.fact,
                excluded.attributes, excluded.valid_at, excluded.invalid_at,
                excluded.embedding::real[], excluded.embedding_model, excluded.content_hash)
        RETURNING (e.xmax = 0) AS was_inserted
    )
    SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),
           pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted)
      INTO v_ins, v_upd FROM written AS w;
    SELECT pg_catalog.count(*) - v_ins - v_upd INTO v_same FROM memory.staged_edges AS s
     WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id;
    v_del := 0;
    IF v_had_edges THEN
        DELETE FROM memory.edges AS l
         WHERE l.tenant_id = p_tenant_id AND l.simulation_id = v_sim
           AND NOT EXISTS (SELECT 1 FROM memory.staged_edges AS s
                            WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id
                              AND s.edge_key = l.edge_key);
        GET DIAGNOSTICS v_del = ROW_COUNT;
    END IF;
    v_result := v_result || pg_catalog.jsonb_build_object('edges', pg_catalog.jsonb_build_object(
        'inserted', v_ins, 'updated', v_upd, 'unchanged', v_same, 'deleted', v_del,
        'skipped', COALESCE(pg_catalog.cardinality(v_skipped), 0)));
    IF v_skipped IS NOT NULL THEN
        v_result := v_result || pg_catalog.jsonb_build_object('skipped_edges', pg_catalog.to_jsonb(v_skipped));
    END IF;

    v_del := 0;
    IF v_had_nodes THEN
        DELETE FROM memory.nodes AS l
         WHERE l.tenant_id = p_tenant_id AND l.simulation_id = v_sim
           AND NOT EXISTS (SELECT 1 FROM memory.staged_nodes AS s
                            WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id
                              AND s.node_key = l.node_key);
        GET DIAGNOSTICS v_del = ROW_COUNT;
    END IF;
    v_result := pg_catalog.jsonb_set(v_result, '{nodes,deleted}', pg_catalog.to_jsonb(v_del));

    -- Episodes.
    WITH src AS (
        SELECT s.episode_id, s.agent_id, s.agent_name, s.platform, s.round, s.action_type,
               s.content, s.metadata, s.occurred_at, COALESCE(s.embedding, l.embedding) AS embedding,
               CASE WHEN s.embedding IS NOT NULL THEN s.embedding_model ELSE l.embedding_model END
                   AS embedding_model,
               s.content_hash
          FROM memory.staged_episodes AS s
          LEFT JOIN memory.episodes AS l
            ON s.embedding IS NULL AND s.content_hash IS NOT NULL
           AND l.tenant_id = p_tenant_id AND l.simulation_id = v_sim
           AND l.episode_key = s.episode_key AND l.content_hash = s.content_hash
         WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id
    ), written AS (
        INSERT INTO memory.episodes AS e
               (tenant_id, simulation_id, episode_id, agent_id, agent_name, platform, round,
                action_type, content, metadata, occurred_at, embedding, embedding_model,
                content_hash)
        SELECT p_tenant_id, v_sim, src.episode_id, src.agent_id, src.agent_name, src.platform,
               src.round, src.action_type, src.content, src.metadata, src.occurred_at,
               src.embedding, src.embedding_model, src.content_hash
          FROM src
        ON CONFLICT (tenant_id, simulation_id, episode_key) DO UPDATE
           SET agent_id = excluded.agent_id, agent_name = excluded.agent_name,
               platform = excluded.platform, round = excluded.round,
               action_type = excluded.action_type, content = excluded.content,
               metadata = excluded.metadata, occurred_at = excluded.occurred_at,
               embedding = excluded.embedding, embedding_model = excluded.embedding_model,
               content_hash = excluded.content_hash, updated_at = pg_catalog.now()
         WHERE (e.agent_id, e.agent_name, e.platform, e.round, e.action_type, e.content,
                e.metadata, e.occurred_at, e.embedding::real[], e.embedding_model, e.content_hash)
               IS DISTINCT FROM
               (excluded.agent_id, excluded.agent_name, excluded.platform, excluded.round,
                excluded.action_type, excluded.content, excluded.metadata, excluded.occurred_at,
                excluded.embedding::real[], excluded.embedding_model, excluded.content_hash)
        RETURNING (e.xmax = 0) AS was_inserted
    )
    SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),
           pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted)
      INTO v_ins, v_upd FROM written AS w;
    SELECT pg_catalog.count(*) - v_ins - v_upd INTO v_same FROM memory.staged_episodes AS s
     WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id;
    v_del := 0;
    IF v_had_episodes THEN
        DELETE FROM memory.episodes AS l
         WHERE l.tenant_id = p_tenant_id AND l.simulation_id = v_sim
           AND NOT EXISTS (SELECT 1 FROM memory.staged_episodes AS s
                            WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id
                              AND s.episode_key = l.episode_key);
        GET DIAGNOSTICS v_del = ROW_COUNT;
    END IF;
    v_result := v_result || pg_catalog.jsonb_build_object('episodes', pg_catalog.jsonb_build_object(
        'inserted', v_ins, 'updated', v_upd, 'unchanged', v_same, 'deleted', v_del));

    -- Profiles.
    WITH written AS (
        INSERT INTO memory.profiles AS p
               (tenant_id, simulation_id, platform, agent_id, name, username, bio, persona, attributes)
        SELECT p_tenant_id, v_sim, s.platform, s.agent_id, s.name, s.username, s.bio, s.persona,
               s.attributes
          FROM memory.staged_profiles AS s
         WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id
        ON CONFLICT (tenant_id, simulation_id, platform, agent_id) DO UPDATE
           SET name = excluded.name, username = excluded.username, bio = excluded.bio,
               persona = excluded.persona, attributes = excluded.attributes,
               updated_at = pg_catalog.now()
         WHERE (p.name, p.username, p.bio, p.persona, p.attributes)
               IS DISTINCT FROM
               (excluded.name, excluded.username, excluded.bio, excluded.persona, excluded.attributes)
        RETURNING (p.xmax = 0) AS was_inserted
    )
    SELECT pg_catalog.count(*) FILTER (WHERE w.was_inserted),
           pg_catalog.count(*) FILTER (WHERE NOT w.was_inserted)
      INTO v_ins, v_upd FROM written AS w;
    SELECT pg_catalog.count(*) - v_ins - v_upd INTO v_same FROM memory.staged_profiles AS s
     WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id;
    v_del := 0;
    IF v_had_profiles THEN
        DELETE FROM memory.profiles AS l
         WHERE l.tenant_id = p_tenant_id AND l.simulation_id = v_sim
           AND NOT EXISTS (SELECT 1 FROM memory.staged_profiles AS s
                            WHERE s.tenant_id = p_tenant_id AND s.attempt_id = p_attempt_id
                              AND s.platform = l.platform AND s.agent_id = l.agent_id);
        GET DIAGNOSTICS v_del = ROW_COUNT;
    END IF;
    v_result := v_result || pg_catalog.jsonb_build_object('profiles', pg_catalog.jsonb_build_object(
        'inserted', v_ins, 'updated', v_upd, 'unchanged', v_same, 'deleted', v_del));

    UPDATE memory.simulations AS s
       SET published = true,
           name = COALESCE(v_attempt.metadata ->> '_name', s.name),
           metadata = s.metadata || (v_attempt.metadata - '_name'),
           updated_at = pg_catalog.now()
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = v_sim
       AND (NOT s.published
            OR s.name IS DISTINCT FROM COALESCE(v_attempt.metadata ->> '_name', s.name)
            OR s.metadata IS DISTINCT FROM s.metadata || (v_attempt.metadata - '_name'));
    UPDATE memory.import_attempts AS a
       SET state = 'committed', result = v_result, finished_at = pg_catalog.clock_timestamp()
     WHERE a.tenant_id = p_tenant_id AND a.attempt_id = p_attempt_id;
    PERFORM memory._discard_staged(p_tenant_id, ARRAY[p_attempt_id]);
    PERFORM memory._release_attempt_lock(v_attempt.lock_key);

    RETURN QUERY
    SELECT k.kind, (v_result #>> ARRAY[k.kind, 'inserted'])::bigint,
           (v_result #>> ARRAY[k.kind, 'updated'])::bigint,
           (v_result #>> ARRAY[k.kind, 'unchanged'])::bigint,
           (v_result #>> ARRAY[k.kind, 'deleted'])::bigint,
           COALESCE((v_result #>> ARRAY[k.kind, 'skipped'])::bigint, 0)
      FROM pg_catalog.unnest(ARRAY['nodes', 'edges', 'episodes', 'profiles']) AS k(kind);
END
$fn$;

COMMENT ON FUNCTION memory.commit_import(uuid, uuid) IS
    'Validate an import attempt and promote it whole, atomically (21000 counts, 23503 dangling edges)';
REVOKE ALL ON FUNCTION memory.commit_import(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.commit_import(uuid, uuid) TO memory_writer;
