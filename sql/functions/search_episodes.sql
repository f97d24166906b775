-- Episodes of a simulation most similar to a query embedding, best first; similarity is
-- 1 - cosine distance. p_top_k is clamped to 1..100 (NULL means 10); p_agent_id narrows to
-- one agent; p_round_from / p_round_to to a round range (inclusive) and p_from / p_to to a
-- time window [p_from, p_to) (each NULL: open; an episode without round or time is outside
-- any range on it). A range that ends before it starts is 22023. It returns min(top_k, rows
-- with an embedding in the range), never fewer: the true top k within the range.
--
-- Strategy: a simulation with its own partial HNSW index (built by `swarm-memory index` for
-- simulations above a size, after they load) is searched through it: the index holds that
-- simulation alone, so no filter after the scan can starve the result, and the candidates
-- are re-ranked by the exact distance. Every other simulation is searched exactly: at the
-- sizes that stay unindexed an exact scan costs a few milliseconds. A range holding at most
-- 10,000 episodes (counted through episodes_round_idx / episodes_time_idx, stopping at
-- 10,001) is searched exactly in any simulation: an approximate scan filtered that narrowly
-- gives up early or ranks loosely, where the exact scan of so few rows is cheap and right.
-- If the approximate search ever returns fewer rows than it should, the exact search answers.
-- A ranged exact search runs as a statement planned for its values (EXECUTE of a fixed text):
-- a cached generic plan cannot pick the range's index.
--
-- p_collapse (issue 13): near-identical hits become one row. Social runs repeat themselves
-- (reposts, echoes of a viral post), and a plain search can return the same post ten
-- times. With p_collapse the search takes a pool of the nearest episodes (5 x top_k, at
-- least 50), walks it best first, and puts each hit with the first kept row within cosine
-- c_collapse_cosine (0.99) of it, else keeps it; while that leaves fewer than top_k rows
-- and the simulation has more, the pool grows fourfold, up to 200. It returns up to top_k
-- kept rows, best first, each the best-ranked hit of its clump, with copies = the pool's
-- hits in the clump and agents = the distinct agents among them (counted within the pool:
-- a clump larger than the pool counts as its share of it). The pairs compared are those
-- whose similarities to the query differ by at most sqrt(2 (1 - 0.99)), the most two
-- vectors that close can differ by. Without it every row is one copy (copies 1, agents 1,
-- or 0 for a row without an agent).
CREATE OR REPLACE FUNCTION memory.search_episodes(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer DEFAULT 10,
    p_agent_id integer DEFAULT NULL,
    p_round_from integer DEFAULT NULL,
    p_round_to integer DEFAULT NULL,
    p_from timestamptz DEFAULT NULL,
    p_to timestamptz DEFAULT NULL,
    p_collapse boolean DEFAULT false,
    p_model text DEFAULT NULL)
RETURNS TABLE (episode_id text, agent_id integer, agent_name text, platform text, round integer,
               action_type text, content text, occurred_at timestamptz, similarity double precision,
               copies integer, agents integer)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_k          integer;
    v_n          integer;
    v_hits       memory.episode_hit[];
    v_index_rows real;
    v_sim_no     bigint;
    v_ranged     boolean := pg_catalog.num_nonnulls(p_round_from, p_round_to, p_from, p_to) > 0;
    v_in_range   bigint;
    v_keys       uuid[];
    v_vecs       public.vector[];
    v_pi         integer[];
    v_pj         integer[];
    v_rep        boolean[];
    v_group      integer[];
    v_groups     integer;
    v_p          integer;
    -- where a range is searched exactly whatever the simulation's size
    c_exact_max  constant integer := 10000;
    -- p_collapse: two hits at least this similar are one clump; the first pool is
    -- c_pool_per x top_k hits (at least c_pool_min), growing up to c_pool_max
    c_collapse_cosine constant double precision := 0.99;
    c_pool_per   constant integer := 5;
    c_pool_min   constant integer := 50;
    c_pool_max   constant integer := 200;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_query_vector(p_query);
    PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, p_model);
    IF p_round_from > p_round_to THEN
        RAISE EXCEPTION 'round range % to % ends before it starts', p_round_from, p_round_to
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass p_round_from <= p_round_to (both inclusive)';
    END IF;
    IF p_from > p_to THEN
        RAISE EXCEPTION 'time window % to % ends before it starts', p_from, p_to
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass p_from <= p_to (the window is [p_from, p_to))';
    END IF;
    v_k := LEAST(GREATEST(COALESCE(p_top_k, 10), 1), 100);
    -- the hits to find: top_k, or the pool that collapsing walks
    v_n := CASE WHEN p_collapse THEN LEAST(GREATEST(v_k * c_pool_per, c_pool_min), c_pool_max)
                ELSE v_k END;
    SELECT s.sim_no INTO v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    SELECT c.reltuples INTO v_index_rows FROM pg_catalog.pg_class AS c
     WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._ann_index_name(v_sim_no));
    IF FOUND AND v_ranged THEN
        EXECUTE $q$
            SELECT pg_catalog.count(*) FROM (
                SELECT 1 FROM memory.episodes AS e
                 WHERE e.tenant_id = $1 AND e.simulation_id = $2
                   AND ($3::integer IS NULL OR e.agent_id = $3)
                   AND ($4::integer IS NULL OR e.round >= $4) AND ($5::integer IS NULL OR e.round <= $5)
                   AND ($6::timestamptz IS NULL OR e.occurred_at >= $6)
                   AND ($7::timestamptz IS NULL OR e.occurred_at < $7)
                 LIMIT $8) AS w $q$
          INTO v_in_range
          USING p_tenant_id, p_simulation_id, p_agent_id, p_round_from, p_round_to, p_from, p_to, c_exact_max + 1;
    END IF;
    LOOP
        v_hits := NULL;
        IF v_index_rows IS NOT NULL AND (NOT v_ranged OR v_in_range > c_exact_max) THEN
            v_hits := ARRAY(SELECT h FROM memory._search_episodes_ann(p_tenant_id, p_simulation_id,
                                                                       v_sim_no, p_query, v_n,
                                                                       p_agent_id, v_index_rows,
                                                                       p_round_from, p_round_to,
                                                                       p_from, p_to) AS h);
            -- Fewer than asked for (a rare agent, a narrow range, or an index still building):
            -- the exact search below is the authority.
            IF pg_catalog.cardinality(v_hits) < v_n THEN
                v_hits := NULL;
            END IF;
        END IF;
        IF v_hits IS NULL AND v_ranged THEN
            EXECUTE $q$
                SELECT ARRAY(
                SELECT ROW(e.episode_id, e.agent_id, e.agent_name, e.platform, e.round, e.action_type, e.content,
                           e.occurred_at, 1 - (e.embedding OPERATOR(public.<=>) $8))::memory.episode_hit
                  FROM memory.episodes AS e
                 WHERE e.tenant_id = $1 AND e.simulation_id = $2
                   AND e.embedding IS NOT NULL
                   AND ($3::integer IS NULL OR e.agent_id = $3)
                   AND ($4::integer IS NULL OR e.round >= $4) AND ($5::integer IS NULL OR e.round <= $5)
                   AND ($6::timestamptz IS NULL OR e.occurred_at >= $6)
                   AND ($7::timestamptz IS NULL OR e.occurred_at < $7)
                 ORDER BY e.embedding OPERATOR(public.<=>) $8, e.episode_id
                 LIMIT $9) $q$
            INTO v_hits
            USING p_tenant_id, p_simulation_id, p_agent_id, p_round_from, p_round_to, p_from, p_to,
                  p_query::public.vector(384), v_n;
        ELSIF v_hits IS NULL THEN
            v_hits := ARRAY(
                SELECT ROW(e.episode_id, e.agent_id, e.agent_name, e.platform, e.round, e.action_type, e.content,
                           e.occurred_at, 1 - (e.embedding OPERATOR(public.<=>) p_query::public.vector(384)))::memory.episode_hit
                  FROM memory.episodes AS e
                 WHERE e.tenant_id = p_tenant_id
                   AND e.simulation_id = p_simulation_id
                   AND e.embedding IS NOT NULL
                   AND (p_agent_id IS NULL OR e.agent_id = p_agent_id)
                 ORDER BY e.embedding OPERATOR(public.<=>) p_query::public.vector(384), e.episode_id
                 LIMIT v_n);
        END IF;
        EXIT WHEN NOT COALESCE(p_collapse, false);

        -- Collapse: the pool's vectors (read by the simulation's keys: leakproof uuid
        -- equality, the primary key), the pairs within the cosine, then best first each hit
        -- joins the first kept row it is paired with, or is kept.
        v_keys := ARRAY(SELECT pg_catalog.md5(h.episode_id)::uuid FROM pg_catalog.unnest(v_hits) AS h);
        SELECT pg_catalog.array_agg(e.embedding ORDER BY pg_catalog.array_position(v_keys, e.episode_key))
          INTO v_vecs
          FROM memory.episodes AS e
         WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
           AND e.episode_key = ANY (v_keys);
        SELECT COALESCE(pg_catalog.array_agg(a.i ORDER BY a.i, b.i), '{}'),
               COALESCE(pg_catalog.array_agg(b.i ORDER BY a.i, b.i), '{}')
          INTO v_pi, v_pj
          FROM pg_catalog.unnest(v_vecs) WITH ORDINALITY AS a(v, i)
          JOIN pg_catalog.unnest(v_vecs) WITH ORDINALITY AS b(v, i)
            ON b.i < a.i
           AND (v_hits[b.i]).similarity - (v_hits[a.i]).similarity <= pg_catalog.sqrt(2 * (1 - c_collapse_cosine))
         WHERE 1 - (a.v OPERATOR(public.<=>) b.v) >= c_collapse_cosine;
        v_rep := pg_catalog.array_fill(true, ARRAY[COALESCE(pg_catalog.cardinality(v_hits), 0)]);
        v_group := '{}';
        v_groups := 0;
        v_p := 1;
        FOR i IN 1 .. COALESCE(pg_catalog.cardinality(v_hits), 0) LOOP
            -- the pairs (i, j < i), by j: the first j still kept takes i
            WHILE v_p <= pg_catalog.cardinality(v_pi) AND v_pi[v_p] = i LOOP
                IF v_rep[i] AND v_rep[v_pj[v_p]] THEN
                    v_rep[i] := false;
                    v_group[i] := v_group[v_pj[v_p]];
                END IF;
                v_p := v_p + 1;
            END LOOP;
            IF v_rep[i] THEN
                v_groups := v_groups + 1;
                v_group[i] := v_groups;
            END IF;
        END LOOP;
        EXIT WHEN v_groups >= v_k OR pg_catalog.cardinality(v_hits) < v_n OR v_n >= c_pool_max;
        v_n := LEAST(v_n * 4, c_pool_max);
    END LOOP;
    IF NOT COALESCE(p_collapse, false) THEN
        RETURN QUERY
        SELECT h.episode_id, h.agent_id, h.agent_name, h.platform, h.round, h.action_type, h.content,
               h.occurred_at, h.similarity, 1, (h.agent_id IS NOT NULL)::integer
          FROM pg_catalog.unnest(v_hits) AS h;
        RETURN;
    END IF;
    RETURN QUERY
    SELECT (v_hits[g.first]).episode_id, (v_hits[g.first]).agent_id,
           (v_hits[g.first]).agent_name, (v_hits[g.first]).platform,
           (v_hits[g.first]).round, (v_hits[g.first]).action_type,
           (v_hits[g.first]).content, (v_hits[g.first]).occurred_at,
           (v_hits[g.first]).similarity, g.copies::integer, g.agents::integer
      FROM (SELECT v_group[i] AS grp, pg_catalog.min(i) AS first, pg_catalog.count(*) AS copies,
                   pg_catalog.count(DISTINCT (v_hits[i]).agent_id) AS agents
              FROM pg_catalog.generate_subscripts(v_hits, 1) AS i
             GROUP BY 1) AS g
     ORDER BY g.grp
     LIMIT v_k;
END
$fn$;

COMMENT ON FUNCTION memory.search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, boolean, text) IS 'Semantic search over a simulation''s episodes (cosine), best first, optionally within a round range and a time window, near-identical hits optionally collapsed into one row with their copies and agents; top_k clamped to 1..100';
GRANT EXECUTE ON FUNCTION memory.search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, boolean, text) TO memory_reader;
