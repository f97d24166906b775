-- The p_limit entities of a simulation whose names a text names or nearly names most
-- closely, with the similarity memory._name_match gives (>= 0.5; ties beyond p_limit
-- included), in no order, without comparing every name: a word similarity s of the
-- name within the text needs s times the name's trigrams among the text's, and of the text
-- within the name s times the text's trigrams among the name's, so the trigrams a name
-- shares with the text (the 't' postings of memory.word_postings, read by equality on
-- (tenant_id, simulation_id, trigram) under row-level security) bound its similarity from
-- above. The candidates are the names holding one of the text's trigrams that at most
-- memory._limit('word_candidates') names hold (a trigram such as 'ent' in thousands of
-- names is only counted for those candidates (see the CTE how): a name sharing nothing but
-- such common trigrams with the text is not found). They are compared in the order of that
-- bound, best first, and the comparing stops when the bound falls below 0.5 or below the
-- p_limit-th similarity found, so a call compares a handful of names, not every name of the
-- simulation. The common trigrams are read whole where that is cheaper than a probe a
-- candidate, and a common trigram that each of the first 16 candidates holds is counted as
-- shared by all of them, unread (CTE held): neither changes which names are found (the same
-- answers on names of people, places and organisations, a third of them Chinese, and on the
-- bench's "Entity 4321" names; bench/names.py, figures in bench/README.md).
-- A text longer than c_whole (512) characters is read as overlapping runs of its words
-- (each c_run (256) characters long, one starting every c_run / 2, a word over 128
-- characters cut): a name is bounded by the trigrams it shares with one run and compared
-- with that run, never with the whole text, so the work grows with the text as its runs do
-- (a name compared with the whole text cost time in the text's length, and a long text of
-- many names held most names' trigrams somewhere, so every name was compared). A name
-- is found where it lies within one run (a name of up to c_run / 2 characters always
-- does); the common trigrams of a run are counted as held by each of its candidates,
-- unread (an upper bound still). A text of up to c_whole characters is one run, the whole
-- text. At most memory._limit('name_comparisons') names are compared a
-- call, the closest bounds first: past it, the names found so far are the answer.
-- Its plan is generic, made once a session (as memory._search_words', which calls it): every
-- step is a keyed lookup or a join of what they read, whatever the text; the planner chose a
-- custom plan for every call otherwise, planning the statement each time.
CREATE OR REPLACE FUNCTION memory._name_candidates(p_tenant_id uuid, p_simulation_id uuid, p_text text,
                                                   p_limit integer)
RETURNS TABLE (node_key uuid, similarity real)
LANGUAGE plpgsql STABLE SECURITY INVOKER ROWS 10
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
    c_whole    constant integer := 512;
    c_run      constant integer := 256;
    v_prepared text := pg_catalog.lower(memory._words_text(p_text));
    v_runs     text[];
    v_keys     uuid[] := '{}';
    v_sims     real[] := '{}';
    v_kth      real := 0.5;
    v_sim      real;
    v_at       integer;
    v_cand     record;
    v_cap      integer := memory._limit('word_candidates');
    v_compares integer := memory._limit('name_comparisons');
    v_indexed  bigint;
BEGIN
    -- the entities the simulation's pair of entity indexes holds, where it has one (see how),
    -- read in two statements: a catalog and a distributed table in one are not one query
    -- on the tenant's shard for Citus
    SELECT s.sim_no INTO v_indexed
      FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    SELECT c.reltuples::bigint INTO v_indexed
      FROM pg_catalog.pg_class AS c
     WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._entities_ann_index_name(v_indexed))
       AND c.reltuples >= 0;
    IF pg_catalog.char_length(v_prepared) <= c_whole THEN
        v_runs := ARRAY[v_prepared];
    ELSE
        -- the runs: the words (white space apart, a word cut every 128 characters)
        -- by where they start, each in the run starting at or before it and in the one before
        v_runs := ARRAY(
            SELECT pg_catalog.string_agg(t.word, ' ' ORDER BY t.n)
              FROM (SELECT m.word[1] AS word, m.n,
                           pg_catalog.sum(pg_catalog.char_length(m.word[1]) + 1) OVER (ORDER BY m.n)
                               - pg_catalog.char_length(m.word[1]) - 1 AS at
                      FROM pg_catalog.regexp_matches(v_prepared, '[^[:space:]]{1,128}', 'g')
                           WITH ORDINALITY AS m (word, n)) AS t
             CROSS JOIN LATERAL (VALUES (t.at / (c_run / 2)), (t.at / (c_run / 2) - 1)) AS r (run)
             WHERE r.run >= 0
             GROUP BY r.run
             ORDER BY r.run);
    END IF;
    FOR v_cand IN
        WITH runs AS MATERIALIZED (
            -- each run's trigrams as memory._name_match compares them (the whole text's: the
            -- t postings' side, memory._name_trigrams)
            SELECT x.run::integer AS run, public.show_trgm(x.body) AS grams
              FROM pg_catalog.unnest(v_runs) WITH ORDINALITY AS x (body, run)
        ), run AS MATERIALIZED (
            SELECT r.run, g.trigram FROM runs AS r CROSS JOIN LATERAL pg_catalog.unnest(r.grams) AS g (trigram)
        ), q AS MATERIALIZED (
            -- the text's trigrams, each with the number of names holding it (up to the cap)
            SELECT g.trigram,
                   (SELECT pg_catalog.count(*) FROM (
                        SELECT 1 FROM memory.word_postings AS p
                         WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                           AND p.word = g.trigram AND p.kind = 't'
                         LIMIT v_cap + 1) AS c) AS df
              FROM (SELECT DISTINCT r.trigram FROM run AS r) AS g
        ), posted AS MATERIALIZED (
            -- the names holding each of the rarer trigrams, read once whatever the runs
            SELECT q.trigram, p.row_key, p.doc_len
              FROM q JOIN memory.word_postings AS p
                ON p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
               AND p.word = q.trigram AND p.kind = 't'
             WHERE q.df <= v_cap
        ), rare AS MATERIALIZED (
            -- the names holding one of a run's rarer trigrams, with those it shares
            SELECT r.run, p.row_key, pg_catalog.count(*) AS shared, pg_catalog.min(p.doc_len) AS grams
              FROM run AS r JOIN posted AS p ON p.trigram = r.trigram
             GROUP BY r.run, p.row_key
        ), held AS MATERIALIZED (
            -- a common trigram held by each of the first 16 candidates (by the rarer
            -- trigrams they share, then key) is counted as shared by every candidate without
            -- reading who holds it: 'ent' in the bench's 10,000 "Entity 4321" names. Counting
            -- a trigram as shared keeps the bound an upper one, so the answer is the same;
            -- a name that does not hold it is only compared sooner than it need be. A text
            -- of several runs counts every common trigram of a run so, unread.
            SELECT r.run, q.trigram, true AS everywhere
              FROM run AS r JOIN q ON q.trigram = r.trigram AND q.df > v_cap
             WHERE pg_catalog.cardinality(v_runs) > 1
            UNION ALL
            SELECT 1, q.trigram, pg_catalog.bool_and(EXISTS (
                       SELECT 1 FROM memory.word_postings AS p
                        WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                          AND p.word = q.trigram AND p.kind = 't' AND p.row_key = r.row_key))
              FROM q CROSS JOIN (SELECT r.row_key FROM rare AS r ORDER BY r.shared DESC, r.row_key LIMIT 16) AS r
             WHERE q.df > v_cap AND pg_catalog.cardinality(v_runs) = 1
             GROUP BY q.trigram
            -- (the common trigrams, each once a run: the CTE common probes those not everywhere)
        ), how AS MATERIALIZED (
            -- the common trigrams each candidate holds, read by one probe a candidate and
            -- trigram, or, when the simulation has fewer than 32 names a candidate, by
            -- reading each common trigram's names whole (a range of the index, far cheaper
            -- a name than a probe; counting that far costs less than the probes would)
            -- The simulation's names are counted as its pair of entity indexes (V0035) counts its
            -- embedded entities, where it has one: cheaper than counting them here. The count only
            -- chooses how the shared trigrams are read, never which names are found. (v_indexed is
            -- read before this statement: a catalog joined here made Citus plan every step of it
            -- apart, as intermediate results, instead of as one query on the tenant's shard.)
            SELECT pg_catalog.cardinality(v_runs) = 1 AND COALESCE(
                       v_indexed,
                       (SELECT pg_catalog.count(*) FROM (
                            SELECT 1 FROM memory.nodes AS n
                             WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                             LIMIT 32 * (SELECT pg_catalog.count(*) FROM rare) + 1) AS c))
                   <= 32 * (SELECT pg_catalog.count(*) FROM rare) AS whole
        ), common AS MATERIALIZED (
            SELECT h.run, h.row_key, pg_catalog.count(*) AS shared
              FROM (SELECT r.run, r.row_key
                      FROM held AS e JOIN rare AS r ON r.run = e.run
                     CROSS JOIN LATERAL (
                         -- by the whole key (OFFSET 0: the trigram a parameter, never a
                         -- filter over a skip scan of the simulation's postings)
                         SELECT 1 FROM memory.word_postings AS p
                          WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                            AND p.word = e.trigram AND p.kind = 't' AND p.row_key = r.row_key
                         OFFSET 0) AS p
                     WHERE NOT (SELECT h.whole FROM how AS h) AND NOT e.everywhere
                    UNION ALL
                    SELECT e.run, p.row_key
                      FROM held AS e JOIN memory.word_postings AS p
                        ON p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                       AND p.word = e.trigram AND p.kind = 't'
                     WHERE (SELECT h.whole FROM how AS h) AND NOT e.everywhere) AS h
             GROUP BY h.run, h.row_key
        ), counted AS MATERIALIZED (
            SELECT r.run, r.row_key, r.grams, r.shared AS rare,
                   r.shared + COALESCE(c.shared, 0) + COALESCE(e.shared, 0) AS shared,
                   pg_catalog.cardinality(x.grams) AS run_grams
              FROM rare AS r
              JOIN runs AS x ON x.run = r.run
              LEFT JOIN common AS c ON c.run = r.run AND c.row_key = r.row_key
              LEFT JOIN (SELECT e.run, pg_catalog.count(*) AS shared FROM held AS e WHERE e.everywhere GROUP BY e.run) AS e
                ON e.run = r.run
        )
        SELECT s.run, s.row_key, GREATEST(s.shared::real / s.grams, s.shared::real / s.run_grams) AS bound
          FROM counted AS s
         WHERE 2 * s.shared >= LEAST(s.grams, s.run_grams)
         ORDER BY 3 DESC, s.rare DESC, s.row_key, s.run
    LOOP
        -- the bound is a double precision ratio and the similarities pg_trgm's real ones: 8/10
        -- as a double is below 0.8 as a real, so an exact comparison stopped at the first tie
        -- of the p_limit-th similarity and returned an arbitrary part of the tied names (the
        -- graph arm's seeds changed from one call to the next); the margin keeps every tie
        EXIT WHEN v_cand.bound < v_kth - 1e-6 OR v_compares = 0;
        -- a name already found as close as this run could make it is not compared again
        v_at := pg_catalog.array_position(v_keys, v_cand.row_key);
        CONTINUE WHEN v_at IS NOT NULL AND v_sims[v_at] >= v_cand.bound - 1e-6;
        v_compares := v_compares - 1;
        SELECT memory._name_match(n.name, v_runs[v_cand.run::integer]) INTO v_sim
          FROM memory.nodes AS n
         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = v_cand.row_key;
        IF v_sim IS NOT NULL AND v_at IS NULL THEN
            v_keys := v_keys OPERATOR(pg_catalog.||) v_cand.row_key;
            v_sims := v_sims OPERATOR(pg_catalog.||) v_sim;
        ELSIF v_sim > v_sims[v_at] THEN
            v_sims[v_at] := v_sim;
        ELSE
            CONTINUE;
        END IF;
        IF pg_catalog.cardinality(v_sims) >= p_limit THEN
            v_kth := (SELECT x.s FROM pg_catalog.unnest(v_sims) AS x (s) ORDER BY x.s DESC OFFSET p_limit - 1 LIMIT 1);
        END IF;
    END LOOP;
    RETURN QUERY SELECT u.k, u.s FROM ROWS FROM (pg_catalog.unnest(v_keys), pg_catalog.unnest(v_sims)) AS u (k, s) WHERE u.s >= v_kth;
END
$fn$;

COMMENT ON FUNCTION memory._name_candidates(uuid, uuid, text, integer) IS 'Internal: the entities whose names a text names or nearly names most closely (trigram word similarity >= 0.5), found through the trigram postings, a long text by runs of its words, at most memory._limit(''name_comparisons'') compared';
GRANT EXECUTE ON FUNCTION memory._name_candidates(uuid, uuid, text, integer) TO memory_reader;
