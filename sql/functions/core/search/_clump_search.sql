-- Search one simulation through a fresh clump build (memory._clump_build): the top_k
-- episodes most similar to the query, best first, exactly ranked, each with its clump (0:
-- a representative's episode). Called by memory.search_episodes for a call without
-- filters when memory._clump_state says the build may be used.
--
-- 1. The build's index of representatives (each distinct vector outside the clumps once)
--    gives the c_candidates nearest vectors, each standing for the episodes that hold it
--    (the first top_k of them, in episode_id order: more cannot be in the result).
-- 2. The clumps, by their leader's similarity to the query, best first: a clump whose leader
--    is within c_margin of the top_k-th best candidate so far is read whole, its vectors
--    ranked in half precision (memory.search_clump_chunks), and its best top_k +
--    c_member_slack join the candidates; the top_k-th best is taken again, and the next
--    clump is read only if it is close enough to that. A clump's members lie within cosine
--    0.99 of its leader, and measured on clumpy data a member is at most 0.05 more similar
--    to a question than the leader (0.03 in 99.9% of cases): c_margin.
-- 3. The candidates within c_window of the top_k-th best (at most top_k + c_rerank_slack)
--    are read from memory.episodes by key and ranked by the exact cosine distance of their
--    full vectors, ties by episode_id, as the exact search ranks them.
-- The breadth of the index search follows the number of representatives (hnsw.ef_search =
-- points / 140, from 200 to pgvector's maximum of 1,000, or narrower for a top 10 from a small
-- build: memory._clump_breadth): points / 140 kept the recall of points / 100, faster;
-- narrower fails first where the index is larger (bench/README.md). Dynamic SQL for the
-- index: the planner uses a partial index only for a query carrying its predicate's
-- constant, the build's opaque number, written as a bigint with format('%s'); every other
-- argument is passed with USING.
-- Episodes changed since the build are not here: the caller searches a build only while no
-- change of the simulation's episodes follows it in the feed.
CREATE OR REPLACE FUNCTION memory._clump_search(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_build_no bigint,
    p_points bigint,
    p_query public.vector,
    p_top_k integer)
RETURNS TABLE (hit memory.episode_hit, hit_clump integer)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
SET hnsw.ef_search = 400
SET hnsw.iterative_scan = 'off'
-- The build's own index is the plan (without this the planner may read the build's rows
-- through the primary key and sort them: exact, and slower).
SET enable_sort = off
AS $fn$
DECLARE
    v_half  public.halfvec := p_query::public.halfvec(384);
    -- the candidate episodes: half-precision similarity, key, clump (0: a representative)
    v_sim   double precision[];
    v_key   uuid[];
    v_clump integer[];
    v_kth   double precision;
    v_c     record;
    v_sql   text;
    c_candidates   constant integer := 300;
    c_margin       constant double precision := 0.05;
    c_member_slack constant integer := 40;
    c_window       constant double precision := 0.001;
    c_rerank_slack constant integer := 30;
BEGIN
    PERFORM pg_catalog.set_config('hnsw.ef_search', memory._clump_breadth(p_points, p_top_k)::text, true);
    v_sql := pg_catalog.format($q$
        SELECT pg_catalog.array_agg(1 - c.d ORDER BY c.d, c.point_no, k.o),
               pg_catalog.array_agg(k.key ORDER BY c.d, c.point_no, k.o)
          FROM (SELECT p.point_no, p.keys, p.embedding OPERATOR(public.<=>) $1 AS d
                  FROM memory.search_points AS p
                 WHERE p.build_no = %s AND p.tenant_id = $2 AND p.simulation_id = $3
                 ORDER BY p.embedding OPERATOR(public.<=>) $1
                 LIMIT $4) AS c
         CROSS JOIN LATERAL pg_catalog.unnest(c.keys[1:$5]) WITH ORDINALITY AS k(key, o) $q$, p_build_no);
    EXECUTE v_sql
      INTO v_sim, v_key
      USING v_half, p_tenant_id, p_simulation_id, GREATEST(c_candidates, p_top_k), p_top_k;
    v_sim := COALESCE(v_sim, '{}');
    v_key := COALESCE(v_key, '{}');
    v_clump := pg_catalog.array_fill(0, ARRAY[pg_catalog.cardinality(v_sim)]);
    v_kth := (SELECT s FROM pg_catalog.unnest(v_sim) AS s ORDER BY s DESC OFFSET p_top_k - 1 LIMIT 1);

    FOR v_c IN
        SELECT c.clump_no, 1 - (c.leader OPERATOR(public.<=>) v_half) AS sim
          FROM memory.search_clumps AS c
         WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id AND c.build_no = p_build_no
         ORDER BY 2 DESC, 1
    LOOP
        EXIT WHEN v_c.sim + c_margin < v_kth;
        SELECT v_sim || pg_catalog.array_agg(m.sim ORDER BY m.sim DESC, m.chunk_no, m.i, k.o),
               v_key || pg_catalog.array_agg(k.key ORDER BY m.sim DESC, m.chunk_no, m.i, k.o),
               v_clump || pg_catalog.array_agg(v_c.clump_no)
          INTO v_sim, v_key, v_clump
          FROM (SELECT ch.chunk_no, u.i, 1 - (u.v OPERATOR(public.<=>) v_half) AS sim
                  FROM memory.search_clump_chunks AS ch
                 CROSS JOIN LATERAL pg_catalog.unnest(ch.embeddings) WITH ORDINALITY AS u(v, i)
                 WHERE ch.tenant_id = p_tenant_id AND ch.simulation_id = p_simulation_id
                   AND ch.build_no = p_build_no AND ch.clump_no = v_c.clump_no
                 ORDER BY u.v OPERATOR(public.<=>) v_half
                 LIMIT p_top_k + c_member_slack) AS m
          JOIN memory.search_clump_chunks AS ch
            ON ch.tenant_id = p_tenant_id AND ch.simulation_id = p_simulation_id
           AND ch.build_no = p_build_no AND ch.clump_no = v_c.clump_no AND ch.chunk_no = m.chunk_no
         CROSS JOIN LATERAL pg_catalog.unnest(
                ch.keys[COALESCE(ch.key_ends[m.i - 1], 0) + 1 : LEAST(ch.key_ends[m.i], COALESCE(ch.key_ends[m.i - 1], 0) + p_top_k)])
                WITH ORDINALITY AS k(key, o);
        v_kth := (SELECT s FROM pg_catalog.unnest(v_sim) AS s ORDER BY s DESC OFFSET p_top_k - 1 LIMIT 1);
    END LOOP;

    RETURN QUERY
    SELECT ROW(e.episode_id, e.agent_id, e.agent_name, e.platform, e.round, e.action_type, e.content,
               e.occurred_at, 1 - (e.embedding OPERATOR(public.<=>) p_query::public.vector(384)))::memory.episode_hit,
           w.clump
      FROM (SELECT c.key, c.clump
              FROM ROWS FROM (pg_catalog.unnest(v_sim), pg_catalog.unnest(v_key), pg_catalog.unnest(v_clump))
                   WITH ORDINALITY AS c(sim, key, clump, o)
             WHERE v_kth IS NULL OR c.sim >= v_kth - c_window
             ORDER BY c.sim DESC, c.o
             LIMIT p_top_k + c_rerank_slack) AS w
      JOIN memory.episodes AS e
        ON e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id AND e.episode_key = w.key
     WHERE e.embedding IS NOT NULL
     ORDER BY e.embedding OPERATOR(public.<=>) p_query::public.vector(384), e.episode_id
     LIMIT p_top_k;
END
$fn$;

COMMENT ON FUNCTION memory._clump_search(uuid, uuid, bigint, bigint, public.vector, integer) IS 'Internal: search a simulation through its clump build (representatives by their index, the clumps near the result read whole), ranked exactly';
GRANT EXECUTE ON FUNCTION memory._clump_search(uuid, uuid, bigint, bigint, public.vector, integer) TO memory_reader;
