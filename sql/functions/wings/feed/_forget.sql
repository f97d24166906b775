-- Forget episodes of a simulation, and everything that holds their text (memory.forget_episodes
-- and memory.forget_agent call it once the simulation is known to be the caller's and locked):
--   facts:     a fact whose every piece of evidence (memory.edge_evidence: its source episodes
--              and the actions that mention it) is a forgotten episode goes with them (an ended
--              fact would keep its text, its history and its place in searches); a fact with
--              other support stays and loses only the forgotten episodes' evidence rows
--   rows:      the episodes, those facts and (p_agent_id) the agent's profiles are deleted
--              through the ordinary triggers, so their words leave memory.word_postings
--   history:   every version of them in memory.row_history (the delete's own included)
--   vectors:   the tenant's vector cache entries of their texts, by the rows' content hashes
--              and their texts' own (memory._cache_hash: an upsert sets no content hash); a
--              cache miss costs an embedding, a kept vector would keep a trace of the text
--   Zep:       the episodes served through swarm-memory serve (memory.zep_episodes, the
--              extraction's output) and the batch items they came in
--   clumps:    compaction clumps naming them, and the simulation's clump search builds
--              (their vectors; `swarm-memory index` builds again)
--   staging:   rows of them still staged by an import of the simulation
--   reports:   their texts (content, and what a repost or quote said: memory._action_said)
--              where the simulation's reports quote them, replaced by a marker
--              (memory._forget_reports; a text too short to tell from other words stays)
-- Then one change in the feed (kind episodes, op delete, the ids; no text) and a tombstone
-- of each row in memory.forgotten, which the importer reads to leave them out. Episodes
-- already gone are nothing to forget: a replay changes nothing and records no change.
-- Returns how many episodes, facts removed, facts kept, profiles, history versions and
-- cached vectors went.
-- SECURITY DEFINER: writers hold no DELETE on the tables (with it they could LOCK them in
-- modes that stop every tenant) and nobody but memory_owner writes memory.row_history,
-- memory.edge_evidence, the clump tables or the tombstones. memory._enter_tenant checks the
-- acting role's grant first, and the owner's policies keep every statement to its tenant.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the grant of memory._acting_role() (the SET ROLE role, else the session
-- user) and the call's tenant setting, which memory._enter_tenant makes in this call; its
-- SET clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._forget(p_tenant_id uuid, p_simulation_id uuid, p_episode_keys uuid[],
                                          p_agent_id integer DEFAULT NULL, p_platform text DEFAULT NULL)
RETURNS TABLE (episodes bigint, facts_removed bigint, facts_kept bigint, profiles bigint, history bigint,
               vectors bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_keys        uuid[];
    v_ids         text[];
    v_text_hashes bytea[];
    v_hashes      bytea[];
    v_edges       uuid[];
    v_edge_ids    text[];
    v_profiles    text[];
    v_kept        bigint;
    v_episodes    bigint;
    v_facts       bigint := 0;
    v_removed     bigint := 0;
    v_history     bigint;
    v_vectors     bigint;
    v_change      bigint;
    v_texts       text[];
    v_reports     jsonb;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    SELECT COALESCE(pg_catalog.array_agg(e.episode_key ORDER BY e.episode_id), '{}'),
           COALESCE(pg_catalog.array_agg(e.episode_id ORDER BY e.episode_id), '{}'),
           COALESCE(pg_catalog.array_agg(pg_catalog.sha256(pg_catalog.convert_to(e.content, 'UTF8')) ORDER BY e.episode_id), '{}'),
           COALESCE(pg_catalog.array_agg(e.content_hash) FILTER (WHERE e.content_hash IS NOT NULL), '{}')
           || COALESCE(pg_catalog.array_agg(memory._cache_hash(e.embedding_model, e.content))
                           FILTER (WHERE e.embedding_model IS NOT NULL AND e.content IS NOT NULL), '{}'),
           COALESCE(pg_catalog.array_agg(e.content) FILTER (WHERE e.content IS NOT NULL), '{}')
           || COALESCE(pg_catalog.array_agg(memory._action_said(e.content, e.metadata))
                           FILTER (WHERE memory._action_said(e.content, e.metadata) IS DISTINCT FROM e.content), '{}')
      INTO v_keys, v_ids, v_text_hashes, v_hashes, v_texts
      FROM memory.episodes AS e
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
       AND e.episode_key = ANY (p_episode_keys);
    v_profiles := ARRAY(SELECT p.platform || '/' || p.agent_id FROM memory.profiles AS p
                         WHERE p_agent_id IS NOT NULL AND p.tenant_id = p_tenant_id
                           AND p.simulation_id = p_simulation_id AND p.agent_id = p_agent_id
                           AND (p_platform IS NULL OR p.platform = p_platform)
                         ORDER BY 1);
    IF pg_catalog.cardinality(v_keys) = 0 AND pg_catalog.cardinality(v_profiles) = 0 THEN
        RETURN QUERY SELECT 0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::bigint;
        RETURN;
    END IF;

    -- the facts the episodes are evidence of: those with no other support go
    SELECT COALESCE(pg_catalog.array_agg(s.edge_key) FILTER (WHERE s.only_forgotten), '{}'),
           pg_catalog.count(*) FILTER (WHERE NOT s.only_forgotten)
      INTO v_edges, v_kept
      FROM (SELECT l.edge_key, pg_catalog.bool_and(l.episode_key = ANY (v_keys)) AS only_forgotten
              FROM memory.edge_evidence AS l
             WHERE l.tenant_id = p_tenant_id AND l.simulation_id = p_simulation_id
               AND l.edge_key IN (SELECT x.edge_key FROM memory.edge_evidence AS x
                                   WHERE x.tenant_id = p_tenant_id AND x.simulation_id = p_simulation_id
                                     AND x.episode_key = ANY (v_keys))
             GROUP BY l.edge_key) AS s;
    SELECT COALESCE(pg_catalog.array_agg(d.edge_id ORDER BY d.edge_id), '{}'),
           v_hashes || COALESCE(pg_catalog.array_agg(d.content_hash) FILTER (WHERE d.content_hash IS NOT NULL), '{}')
           || COALESCE(pg_catalog.array_agg(memory._cache_hash(d.embedding_model, d.fact))
                           FILTER (WHERE d.embedding_model IS NOT NULL AND d.fact IS NOT NULL), '{}')
      INTO v_edge_ids, v_hashes
      FROM memory.edges AS d
     WHERE d.tenant_id = p_tenant_id AND d.simulation_id = p_simulation_id AND d.edge_key = ANY (v_edges);

    DELETE FROM memory.edge_evidence AS l
     WHERE l.tenant_id = p_tenant_id AND l.simulation_id = p_simulation_id
       AND (l.episode_key = ANY (v_keys) OR l.edge_key = ANY (v_edges));
    DELETE FROM memory.edges AS d
     WHERE d.tenant_id = p_tenant_id AND d.simulation_id = p_simulation_id AND d.edge_key = ANY (v_edges);
    GET DIAGNOSTICS v_facts = ROW_COUNT;
    DELETE FROM memory.episodes AS e
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id AND e.episode_key = ANY (v_keys);
    GET DIAGNOSTICS v_episodes = ROW_COUNT;
    DELETE FROM memory.profiles AS p
     WHERE p_agent_id IS NOT NULL AND p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
       AND p.agent_id = p_agent_id AND (p_platform IS NULL OR p.platform = p_platform);
    GET DIAGNOSTICS v_removed = ROW_COUNT;

    -- every version of them, the ones the deletes above just wrote included
    DELETE FROM memory.row_history AS h
     WHERE h.tenant_id = p_tenant_id AND h.simulation_id = p_simulation_id
       AND ((h.kind = 'episodes' AND h.row_id = ANY (v_ids)) OR (h.kind = 'edges' AND h.row_id = ANY (v_edge_ids)));
    GET DIAGNOSTICS v_history = ROW_COUNT;
    DELETE FROM memory.vector_cache AS c
     WHERE c.tenant_id = p_tenant_id AND c.content_hash = ANY (v_hashes);
    GET DIAGNOSTICS v_vectors = ROW_COUNT;
    DELETE FROM memory.zep_batch_items AS b
     WHERE b.tenant_id = p_tenant_id AND b.simulation_id = p_simulation_id
       AND b.episode_uuid::text = ANY (v_ids);
    DELETE FROM memory.zep_episodes AS z
     WHERE z.tenant_id = p_tenant_id AND z.simulation_id = p_simulation_id
       AND z.episode_uuid::text = ANY (v_ids);
    DELETE FROM memory.episode_clumps AS c
     WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
       AND (c.representative_key = ANY (v_keys) OR c.member_ids && v_ids);
    DELETE FROM memory.search_builds AS b
     WHERE b.tenant_id = p_tenant_id AND b.simulation_id = p_simulation_id AND pg_catalog.cardinality(v_keys) > 0;
    DELETE FROM memory.staged_episodes AS s
     WHERE s.tenant_id = p_tenant_id AND s.episode_key = ANY (v_keys)
       AND s.attempt_id IN (SELECT a.attempt_id FROM memory.import_attempts AS a
                             WHERE a.tenant_id = p_tenant_id AND a.simulation_id = p_simulation_id);

    v_reports := memory._forget_reports(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                                        p_texts => v_texts);

    v_change := memory._record_change(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                                      p_kind => 'episodes', p_op => 'delete', p_ids => v_ids,
                                      p_counts => pg_catalog.jsonb_build_object(
                                          'episodes', v_episodes, 'facts_removed', v_facts,
                                          'facts_kept', v_kept, 'profiles', v_removed)
                                                  || v_reports,
                                      p_attempt_id => NULL,
                                      p_detail => pg_catalog.jsonb_build_object(
                                          'forgotten', true, 'facts', v_edge_ids, 'profiles', v_profiles));
    INSERT INTO memory.forgotten AS f (tenant_id, simulation_id, kind, row_key, text_hash, change_id)
    SELECT p_tenant_id, p_simulation_id, 'episodes', u.k, u.h, v_change
      FROM ROWS FROM (pg_catalog.unnest(v_keys), pg_catalog.unnest(v_text_hashes)) AS u (k, h)
    UNION ALL
    SELECT p_tenant_id, p_simulation_id, 'edges', pg_catalog.md5(u.i)::uuid, NULL, v_change
      FROM pg_catalog.unnest(v_edge_ids) AS u (i)
    UNION ALL
    SELECT p_tenant_id, p_simulation_id, 'profiles', pg_catalog.md5(u.i)::uuid, NULL, v_change
      FROM pg_catalog.unnest(v_profiles) AS u (i)
    ON CONFLICT ON CONSTRAINT forgotten_pkey DO NOTHING;

    RETURN QUERY SELECT v_episodes, v_facts, v_kept, v_removed, v_history, v_vectors;
END
$fn$;

COMMENT ON FUNCTION memory._forget(uuid, uuid, uuid[], integer, text) IS 'Internal: forget episodes with the facts only they supported, their history, cached vectors and copies, leaving tombstones (SECURITY DEFINER: writers hold no DELETE)';
GRANT EXECUTE ON FUNCTION memory._forget(uuid, uuid, uuid[], integer, text) TO memory_writer;
