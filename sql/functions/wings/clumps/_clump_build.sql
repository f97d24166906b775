-- Find the clumps of one simulation (by its opaque number) and build what search_episodes
-- reads instead of the simulation's own index when the simulation has clumps or copies
-- (bench/README.md, "Search on clumpy swarm data"). p_action 'clump' builds (a
-- new build beside the old one, which goes when the new one is done, in one transaction),
-- 'drop' removes the simulation's builds and their indexes. Called by `swarm-memory
-- index` for each row of memory._clump_plan().
--
-- 1. Leaders: a sample of the simulation's embedded episodes (c_sample of them, by
--    episode_key: an md5, so a fixed pseudo-random draw), the sampled vectors with at least
--    c_dense others of the sample within cosine c_cosine, densest first; each becomes a
--    leader, the normalised mean of its neighbours in the sample, unless it lies within
--    c_cosine of a leader already taken (at most c_max_clumps).
-- 2. Every embedded episode joins its nearest leader within c_cosine, if any: that
--    leader's clump. Episodes with exactly the same vector are one vector, its keys in
--    episode_id order.
-- 3. Indexed when worth it (a clump found, or at least c_copies_share of the episodes
--    copies of another): the vectors outside the clumps go to memory.search_points, under
--    an HNSW index of their own (half precision, m = p_m, ef_construction =
--    p_ef_construction, WHERE build_no = the build's number); each clump to
--    memory.search_clumps with its leader, counts and agents, its vectors c_chunk to a row
--    in memory.search_clump_chunks. Otherwise the build only records what it found, and the
--    simulation is searched through its own index of every episode.
-- The build first reads the simulation's last change in the feed: a change it does not see
-- comes later in the feed and makes the build stale (memory._clump_state).
--
-- Cost: the sample's pairs and the assignment are small beside the writes and the index of
-- the representatives (bench/README.md, target bench.clumps).
-- Locks: the episodes are only read (tenant writes go on); the CREATE INDEX holds
-- memory.search_points in SHARE mode until the call ends, which stops only other builds;
-- the old builds' indexes are left to `swarm-memory index`, which drops them CONCURRENTLY
-- (swarm_memory.ann.build_clumps): no tenant's search waits on this call.
-- SECURITY DEFINER: only memory_owner writes these tables and indexes memory.search_points;
-- memory._enter_tenant_as_admin checks the caller as the session user and enters the
-- tenant, whose rows alone the owner's policies then show. The dynamic statements take
-- only numbers.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory._acting_role()'s memory_admin privileges and the call's tenant
-- setting, which memory._enter_tenant_as_admin makes in this call (the caller's own setting
-- is put back after); its SET clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._clump_build(
    p_tenant_id uuid,
    p_sim_no bigint,
    p_action text DEFAULT 'clump',
    p_m integer DEFAULT 32,
    p_ef_construction integer DEFAULT 128)
RETURNS TABLE (build_no bigint, episodes bigint, points bigint, clumps integer, clumped bigint,
               indexed boolean)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
#variable_conflict use_column
DECLARE
    v_previous text := pg_catalog.current_setting('memory.tenant_id', true);
    v_sim      uuid;
    v_change   bigint;
    v_build    bigint;
    v_old      bigint[];
    v_sample   public.halfvec[];
    v_leaders  public.halfvec[] := '{}';
    v_cand     record;
    v_episodes bigint;
    v_distinct bigint;
    v_indexed  boolean;
    -- a clump: the episodes within this cosine of its leader
    c_cosine      constant double precision := memory._near_copy();
    c_sample      constant integer := 2000;
    c_dense       constant integer := 4;
    c_max_clumps  constant integer := 256;
    c_copies_share constant double precision := 0.01;
    -- a clump's vectors per row of memory.search_clump_chunks: 9 x 776 bytes, a row in its page
    c_chunk       constant integer := 9;
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    IF p_sim_no IS NULL OR p_action IS NULL OR p_m IS NULL OR p_ef_construction IS NULL THEN
        RAISE EXCEPTION 'p_sim_no, p_action, p_m and p_ef_construction must not be NULL'
            USING ERRCODE = 'null_value_not_allowed', HINT = 'take a row of memory._clump_plan(): its tenant, sim_no and action';
    END IF;
    PERFORM memory._one_of('clump action', p_action, '{clump, drop}', 'the action column of memory._clump_plan()');
    SELECT s.simulation_id INTO v_sim FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.sim_no = p_sim_no;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no simulation numbered % in tenant %', p_sim_no, p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'take a row of memory._clump_plan()';
    END IF;
    v_old := ARRAY(SELECT b.build_no FROM memory.search_builds AS b
                    WHERE b.tenant_id = p_tenant_id AND b.simulation_id = v_sim);

    IF p_action = 'clump' THEN
        SELECT pg_catalog.max(c.change_id) INTO v_change FROM memory.changes AS c
         WHERE c.tenant_id = p_tenant_id AND c.simulation_id = v_sim;

        -- 1. Leaders, densest first, each the mean of its neighbours in the sample.
        v_sample := ARRAY(SELECT e.embedding::public.halfvec(384) FROM memory.episodes AS e
                           WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim
                             AND e.embedding IS NOT NULL
                           ORDER BY e.episode_key LIMIT c_sample);
        FOR v_cand IN
            WITH s AS MATERIALIZED (SELECT u.v, u.i FROM pg_catalog.unnest(v_sample) WITH ORDINALITY AS u(v, i))
            SELECT a.v
              FROM s AS a JOIN s AS b ON b.i <> a.i AND (a.v OPERATOR(public.<=>) b.v) <= 1 - c_cosine
             GROUP BY a.i, a.v
            HAVING pg_catalog.count(*) >= c_dense
             ORDER BY pg_catalog.count(*) DESC, a.i
        LOOP
            EXIT WHEN pg_catalog.cardinality(v_leaders) >= c_max_clumps;
            CONTINUE WHEN EXISTS (SELECT 1 FROM pg_catalog.unnest(v_leaders) AS l(v)
                                   WHERE (l.v OPERATOR(public.<=>) v_cand.v) <= 1 - c_cosine);
            v_leaders := v_leaders || (SELECT public.l2_normalize(public.avg(s.v))
                                         FROM pg_catalog.unnest(v_sample) AS s(v)
                                        WHERE (s.v OPERATOR(public.<=>) v_cand.v) <= 1 - c_cosine);
        END LOOP;

        -- 2. Worth indexing apart: a clump, or copies enough.
        SELECT pg_catalog.count(*), pg_catalog.count(DISTINCT e.embedding) INTO v_episodes, v_distinct
          FROM memory.episodes AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim AND e.embedding IS NOT NULL
           AND pg_catalog.cardinality(v_leaders) = 0;
        v_indexed := pg_catalog.cardinality(v_leaders) > 0 OR v_episodes - v_distinct >= c_copies_share * v_episodes;

        INSERT INTO memory.search_builds AS b (tenant_id, simulation_id, sim_no, change_id, episodes, points,
                                               clumps, clumped, indexed, m, ef_construction)
        VALUES (p_tenant_id, v_sim, p_sim_no, v_change, COALESCE(v_episodes, 0), 0,
                pg_catalog.cardinality(v_leaders), 0, v_indexed, p_m, p_ef_construction)
        RETURNING b.build_no INTO v_build;

        -- 3. Each episode to its nearest leader within the cosine; each distinct vector once;
        --    the representatives, the clumps and their vectors, in one pass.
        IF v_indexed THEN
            WITH a AS MATERIALIZED (
                SELECT e.episode_key, e.episode_id, e.agent_id, e.embedding,
                       (SELECT l.i FROM pg_catalog.unnest(v_leaders) WITH ORDINALITY AS l(v, i)
                         WHERE (e.embedding::public.halfvec(384) OPERATOR(public.<=>) l.v) <= 1 - c_cosine
                         ORDER BY e.embedding::public.halfvec(384) OPERATOR(public.<=>) l.v, l.i
                         LIMIT 1)::integer AS clump_no
                  FROM memory.episodes AS e
                 WHERE e.tenant_id = p_tenant_id AND e.simulation_id = v_sim AND e.embedding IS NOT NULL),
            v AS MATERIALIZED (
                SELECT a.clump_no, a.embedding::public.halfvec(384) AS h,
                       pg_catalog.array_agg(a.episode_key ORDER BY a.episode_id) AS keys,
                       pg_catalog.row_number() OVER (PARTITION BY a.clump_no ORDER BY pg_catalog.min(a.episode_id)) AS n
                  FROM a GROUP BY a.clump_no, a.embedding),
            p AS (
                INSERT INTO memory.search_points (tenant_id, simulation_id, build_no, point_no, embedding, keys)
                SELECT p_tenant_id, v_sim, v_build, v.n, v.h, v.keys FROM v WHERE v.clump_no IS NULL
                RETURNING 1),
            c AS (
                INSERT INTO memory.search_clumps (tenant_id, simulation_id, build_no, clump_no, leader, members,
                                                  vectors, agent_ids)
                SELECT p_tenant_id, v_sim, v_build, a.clump_no, v_leaders[a.clump_no], pg_catalog.count(*),
                       pg_catalog.count(DISTINCT a.embedding),
                       COALESCE(pg_catalog.array_agg(DISTINCT a.agent_id) FILTER (WHERE a.agent_id IS NOT NULL), '{}')
                  FROM a WHERE a.clump_no IS NOT NULL GROUP BY a.clump_no
                RETURNING 1),
            g AS (
                SELECT v.clump_no, (v.n - 1) / c_chunk AS chunk_no, v.n, v.h, v.keys,
                       pg_catalog.sum(pg_catalog.cardinality(v.keys))
                           OVER (PARTITION BY v.clump_no, (v.n - 1) / c_chunk ORDER BY v.n)::integer AS key_end
                  FROM v WHERE v.clump_no IS NOT NULL),
            gk AS (
                SELECT g.clump_no, g.chunk_no, pg_catalog.array_agg(k.key ORDER BY g.n, k.o) AS keys
                  FROM g CROSS JOIN LATERAL pg_catalog.unnest(g.keys) WITH ORDINALITY AS k(key, o)
                 GROUP BY g.clump_no, g.chunk_no),
            ge AS (
                SELECT g.clump_no, g.chunk_no, pg_catalog.array_agg(g.h ORDER BY g.n) AS embeddings,
                       pg_catalog.array_agg(g.key_end ORDER BY g.n) AS key_ends
                  FROM g GROUP BY g.clump_no, g.chunk_no),
            ch AS (
                INSERT INTO memory.search_clump_chunks (tenant_id, simulation_id, build_no, clump_no, chunk_no,
                                                        embeddings, keys, key_ends)
                SELECT p_tenant_id, v_sim, v_build, ge.clump_no, ge.chunk_no, ge.embeddings, gk.keys, ge.key_ends
                  FROM ge JOIN gk ON gk.clump_no = ge.clump_no AND gk.chunk_no = ge.chunk_no
                 ORDER BY ge.clump_no, ge.chunk_no
                RETURNING 1)
            SELECT (SELECT pg_catalog.count(*) FROM a), (SELECT pg_catalog.count(*) FROM p)
              INTO v_episodes, v_distinct;
            EXECUTE pg_catalog.format(
                'CREATE INDEX %I ON memory.search_points USING hnsw (embedding public.halfvec_cosine_ops)'
                ' WITH (m = %s, ef_construction = %s) WHERE build_no = %s',
                memory._clump_index_name(p_sim_no, v_build), p_m, p_ef_construction, v_build);
            UPDATE memory.search_builds AS b
               SET episodes = v_episodes, points = v_distinct,
                   clumped = (SELECT COALESCE(pg_catalog.sum(c.members), 0) FROM memory.search_clumps AS c
                               WHERE c.tenant_id = p_tenant_id AND c.simulation_id = v_sim AND c.build_no = v_build)
             WHERE b.tenant_id = p_tenant_id AND b.simulation_id = v_sim AND b.build_no = v_build;
        END IF;
    END IF;

    -- The old builds go (their rows by the foreign keys). Their indexes stay, empty, for
    -- `swarm-memory index` to drop CONCURRENTLY after the call: a DROP INDEX here would hold
    -- memory.search_points, which every tenant's clump search reads, until the commit.
    DELETE FROM memory.search_builds AS b
     WHERE b.tenant_id = p_tenant_id AND b.simulation_id = v_sim AND b.build_no = ANY (v_old);
    RETURN QUERY
    SELECT b.build_no, b.episodes, b.points, b.clumps, b.clumped, b.indexed
      FROM memory.search_builds AS b
     WHERE b.tenant_id = p_tenant_id AND b.simulation_id = v_sim AND b.build_no = v_build;
    PERFORM pg_catalog.set_config('memory.tenant_id', COALESCE(v_previous, ''), true);
END
$fn$;

COMMENT ON FUNCTION memory._clump_build(uuid, bigint, text, integer, integer) IS 'Internal: find a simulation''s clumps and index its representatives for search_episodes, or drop them (SECURITY DEFINER: only the owner writes them; memory_admin, by swarm-memory index)';
GRANT EXECUTE ON FUNCTION memory._clump_build(uuid, bigint, text, integer, integer) TO memory_admin;
