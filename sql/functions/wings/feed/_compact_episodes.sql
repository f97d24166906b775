-- Compaction of a simulation's near-duplicate episodes, agent by agent: episodes of one
-- agent whose vectors have a cosine similarity above p_similarity form a clump, which
-- becomes one representative (its earliest episode, by time then id) with its count, kept
-- in memory.episode_clumps with the other members' ids. p_drop: the other members are
-- deleted (a later import that still carries them brings them back); otherwise they stay,
-- marked by their clump. Clumps are greedy around leaders: in time order, an episode not yet
-- in a clump leads one, and joins every later episode of the agent near it that is in none.
-- A clump found again (a second run) keeps its earlier members; one found again as it was
-- is not written again (a replay writes nothing and records no change). The compaction is
-- one change in the feed (kind episodes, op compact, the members' ids). Returns the clumps
-- written, the episodes they hold besides their representatives, and how many of those
-- were deleted.
-- Cost: pairs within each agent (n^2 / 2 vector distances for an agent of n episodes).
-- SECURITY DEFINER: writers hold no DELETE on episodes, and nobody writes episode_clumps but
-- memory_owner. Callable only by memory_owner's functions (memory.compact_episodes and
-- memory._sweep_tenant), which check their caller and enter the tenant first.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the call's tenant setting, made by its callers (memory.compact_episodes,
-- memory._sweep_tenant) after their grant check; no tenant role may call it; its SET
-- clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._compact_episodes(p_tenant_id uuid, p_simulation_id uuid,
                                                    p_similarity real, p_drop boolean)
RETURNS TABLE (clumps integer, episodes integer, dropped integer)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_pair     record;
    v_leader   jsonb := '{}'::jsonb;   -- member key -> leader key
    v_members  jsonb := '{}'::jsonb;   -- leader key -> [member ids]
    v_ids      jsonb := '{}'::jsonb;   -- leader key -> [leader id, agent id]
    v_clumps   integer := 0;
    v_episodes integer := 0;
    v_dropped  integer := 0;
    v_all      text[] := '{}';
    v_key      text;
    v_written  bigint;
    v_change   bigint;
BEGIN
    IF NOT (p_similarity > 0.9 AND p_similarity < 1) THEN
        RAISE EXCEPTION 'compaction similarity must be above 0.9 and below 1, not %', p_similarity
            USING ERRCODE = 'invalid_parameter_value', HINT = pg_catalog.format('near duplicates are at %s and above (the default)', memory._near_copy());
    END IF;
    FOR v_pair IN
        SELECT a.episode_key::text AS a_key, a.episode_id AS a_id, b.episode_key::text AS b_key,
               b.episode_id AS b_id, a.agent_id
          FROM memory.episodes AS a
          JOIN memory.episodes AS b
            ON b.tenant_id = a.tenant_id AND b.simulation_id = a.simulation_id AND b.agent_id = a.agent_id
           AND (COALESCE(b.occurred_at, '-infinity'), b.episode_id) > (COALESCE(a.occurred_at, '-infinity'), a.episode_id)
         WHERE a.tenant_id = p_tenant_id AND a.simulation_id = p_simulation_id
           AND b.tenant_id = p_tenant_id AND b.simulation_id = p_simulation_id
           AND a.embedding IS NOT NULL AND b.embedding IS NOT NULL
           AND (a.embedding OPERATOR(public.<=>) b.embedding) < 1 - p_similarity
         ORDER BY COALESCE(a.occurred_at, '-infinity'), a.episode_id, COALESCE(b.occurred_at, '-infinity'), b.episode_id
    LOOP
        CONTINUE WHEN v_leader ? v_pair.a_key OR v_leader ? v_pair.b_key OR v_members ? v_pair.b_key;
        v_leader := v_leader || pg_catalog.jsonb_build_object(v_pair.b_key, v_pair.a_key);
        v_members := pg_catalog.jsonb_set(v_members, ARRAY[v_pair.a_key],
                                          COALESCE(v_members -> v_pair.a_key, '[]'::jsonb) || pg_catalog.to_jsonb(v_pair.b_id));
        v_ids := v_ids || pg_catalog.jsonb_build_object(v_pair.a_key, pg_catalog.jsonb_build_array(v_pair.a_id, v_pair.agent_id));
    END LOOP;

    FOR v_key IN SELECT k FROM pg_catalog.jsonb_object_keys(v_members) AS k LOOP
        -- the rows written counted by RETURNING: an INSERT ... SELECT's row count on Citus is
        -- the rows selected, whether or not the DO UPDATE below wrote (and Citus refuses the
        -- subqueries below in an INSERT ... VALUES)
        WITH written AS (
            INSERT INTO memory.episode_clumps AS c
                   (tenant_id, simulation_id, representative_key, representative_id, agent_id, members, member_ids,
                    dropped, similarity, compacted_at)
            SELECT p_tenant_id, p_simulation_id, v_key::uuid, v_ids #>> ARRAY[v_key, '0'], (v_ids #>> ARRAY[v_key, '1'])::integer,
                   1 + pg_catalog.cardinality(m.ids), m.ids, p_drop, p_similarity, pg_catalog.now()
              FROM (SELECT ARRAY(SELECT pg_catalog.jsonb_array_elements_text(v_members -> v_key) ORDER BY 1) AS ids) AS m
            ON CONFLICT ON CONSTRAINT episode_clumps_pkey DO UPDATE
               SET member_ids = ARRAY(SELECT DISTINCT u FROM pg_catalog.unnest(c.member_ids || excluded.member_ids) AS u ORDER BY u),
                   members = 1 + pg_catalog.cardinality(ARRAY(SELECT DISTINCT u FROM pg_catalog.unnest(c.member_ids || excluded.member_ids) AS u)),
                   dropped = c.dropped OR excluded.dropped, similarity = excluded.similarity,
                   compacted_at = excluded.compacted_at  -- (Citus refuses now() here)
             -- a clump found again as it was is left alone: a replay writes nothing
             WHERE (c.member_ids, c.dropped, c.similarity) IS DISTINCT FROM
                   (ARRAY(SELECT DISTINCT u FROM pg_catalog.unnest(c.member_ids || excluded.member_ids) AS u ORDER BY u),
                    c.dropped OR excluded.dropped, excluded.similarity)
            RETURNING 1)
        SELECT pg_catalog.count(*) INTO v_written FROM written;
        CONTINUE WHEN v_written = 0;
        v_clumps := v_clumps + 1;
        v_episodes := v_episodes + pg_catalog.jsonb_array_length(v_members -> v_key);
        v_all := v_all || ARRAY(SELECT pg_catalog.jsonb_array_elements_text(v_members -> v_key));
    END LOOP;
    IF p_drop AND v_episodes > 0 THEN
        DELETE FROM memory.episodes AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND e.episode_key = ANY (ARRAY(SELECT pg_catalog.md5(i)::uuid FROM pg_catalog.unnest(v_all) AS i));
        GET DIAGNOSTICS v_dropped = ROW_COUNT;
    END IF;
    IF v_clumps > 0 THEN
        -- the members' ids sorted first: memory._record_change is called as a plain expression
        v_all := ARRAY(SELECT i FROM pg_catalog.unnest(v_all) AS i ORDER BY i);
        v_change := memory._record_change(p_tenant_id => p_tenant_id,
                                          p_simulation_id => p_simulation_id, p_kind => 'episodes',
                                          p_op => 'compact', p_ids => v_all,
                                          p_counts => pg_catalog.jsonb_build_object('clumps', v_clumps, 'episodes', v_episodes, 'deleted', v_dropped),
                                          p_attempt_id => NULL,
                                          p_detail => pg_catalog.jsonb_build_object('similarity', p_similarity, 'dropped', p_drop));
    END IF;
    RETURN QUERY SELECT v_clumps, v_episodes, v_dropped;
END
$fn$;

COMMENT ON FUNCTION memory._compact_episodes(uuid, uuid, real, boolean) IS 'Internal: compact an agent''s near-duplicate episodes into representatives with their counts (SECURITY DEFINER: writers hold no DELETE)';
