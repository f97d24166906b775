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
-- p_limit-th similarity found (a comparison costs about 0.1 ms; before, every name of the
-- simulation was compared: 1.5 s for 10,000 names).
-- Measured on 10,000 names of people, places and organisations, a third of them Chinese,
-- 150 questions naming, misspelling or naming none of them: p50 12.7 -> 5.6 ms, worst 65
-- -> 20 ms, once the common trigrams were read whole where that is cheaper than a probe a
-- candidate (the bench's "Entity 4321" names, where 'ent' is in every one of 10,000 names
-- and 229 candidates probe it: 8.6 ms, as before); the same answers for all 150.
-- A common trigram that each of the first 16 candidates holds is then counted as shared by
-- all of them, unread (CTE held): the bench's names, 60 questions at 200,000 episodes,
-- 9.3 -> 3.6-4.1 ms (seven trigrams of "Entity" no longer probed for 209 candidates), the
-- same rows for all 60; the names of people, places and organisations 5.0-5.4 ms against
-- 5.0-5.4 (a common trigram there is missing from one of the first 16), the same rows for
-- all 150 (bench/names.py).
CREATE OR REPLACE FUNCTION memory._name_candidates(p_tenant_id uuid, p_simulation_id uuid, p_text text,
                                                   p_limit integer)
RETURNS TABLE (node_key uuid, similarity real)
LANGUAGE plpgsql STABLE SECURITY INVOKER ROWS 10
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_grams    text[] := memory._name_trigrams(p_text);
    v_prepared text := pg_catalog.lower(memory._words_text(p_text));
    v_keys     uuid[] := '{}';
    v_sims     real[] := '{}';
    v_kth      real := 0.5;
    v_sim      real;
    v_cand     record;
    v_cap      integer := memory._limit('word_candidates');
BEGIN
    IF COALESCE(pg_catalog.cardinality(v_grams), 0) = 0 THEN
        RETURN;
    END IF;
    FOR v_cand IN
        WITH q AS MATERIALIZED (
            -- the text's trigrams, each with the number of names holding it (up to the cap)
            SELECT g.trigram,
                   (SELECT pg_catalog.count(*) FROM (
                        SELECT 1 FROM memory.word_postings AS p
                         WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                           AND p.word = g.trigram AND p.kind = 't'
                         LIMIT v_cap + 1) AS c) AS df
              FROM pg_catalog.unnest(v_grams) AS g (trigram)
        ), rare AS MATERIALIZED (
            -- the names holding one of the text's rarer trigrams, with those it shares
            SELECT p.row_key, pg_catalog.count(*) AS shared, pg_catalog.min(p.doc_len) AS grams
              FROM q JOIN memory.word_postings AS p
                ON p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
               AND p.word = q.trigram AND p.kind = 't'
             WHERE q.df <= v_cap
             GROUP BY p.row_key
        ), held AS MATERIALIZED (
            -- a common trigram held by each of the first 16 candidates (by the rarer
            -- trigrams they share, then key) is counted as shared by every candidate without
            -- reading who holds it: 'ent' in the bench's 10,000 "Entity 4321" names. Counting
            -- a trigram as shared keeps the bound an upper one, so the answer is the same;
            -- a name that does not hold it is only compared sooner than it need be
            SELECT q.trigram, pg_catalog.bool_and(EXISTS (
                       SELECT 1 FROM memory.word_postings AS p
                        WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                          AND p.word = q.trigram AND p.kind = 't' AND p.row_key = r.row_key)) AS everywhere
              FROM q CROSS JOIN (SELECT r.row_key FROM rare AS r ORDER BY r.shared DESC, r.row_key LIMIT 16) AS r
             WHERE q.df > v_cap
             GROUP BY q.trigram
            -- (the common trigrams, each once: the CTE common probes those not everywhere)
        ), how AS MATERIALIZED (
            -- the common trigrams each candidate holds, read by one probe a candidate and
            -- trigram (about 2.5 us each), or, when the simulation has fewer than 32 names
            -- a candidate, by reading each common trigram's names whole (a range of the
            -- index, a fraction of a microsecond a name; counting that far costs less than
            -- the probes would)
            -- The simulation's names are counted as its pair of entity indexes (V0035) counts
            -- its embedded entities, where it has one: counting them here, up to 32 a
            -- candidate, took a call 4.8 ms instead of 4.4 ms at 10,000 names (the bench's,
            -- 229 candidates, 100 questions). The count only chooses how the shared trigrams
            -- are read, never which names are found.
            SELECT COALESCE(
                       (SELECT c.reltuples::bigint
                          FROM memory.simulations AS s
                          JOIN pg_catalog.pg_class AS c
                            ON c.oid = pg_catalog.to_regclass('memory.' || memory._entities_ann_index_name(s.sim_no))
                         WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id
                           AND c.reltuples >= 0),
                       (SELECT pg_catalog.count(*) FROM (
                            SELECT 1 FROM memory.nodes AS n
                             WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                             LIMIT 32 * (SELECT pg_catalog.count(*) FROM rare) + 1) AS c))
                   <= 32 * (SELECT pg_catalog.count(*) FROM rare) AS whole
        ), common AS MATERIALIZED (
            SELECT h.row_key, pg_catalog.count(*) AS shared
              FROM (SELECT r.row_key
                      FROM q CROSS JOIN rare AS r
                     CROSS JOIN LATERAL (
                         -- by the whole key (OFFSET 0: the trigram a parameter, never a
                         -- filter over a skip scan of the simulation's postings)
                         SELECT 1 FROM memory.word_postings AS p
                          WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                            AND p.word = q.trigram AND p.kind = 't' AND p.row_key = r.row_key
                         OFFSET 0) AS p
                     WHERE NOT (SELECT h.whole FROM how AS h)
                       AND q.trigram IN (SELECT e.trigram FROM held AS e WHERE NOT e.everywhere)
                    UNION ALL
                    SELECT p.row_key
                      FROM q JOIN memory.word_postings AS p
                        ON p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                       AND p.word = q.trigram AND p.kind = 't'
                     WHERE (SELECT h.whole FROM how AS h)
                       AND q.trigram IN (SELECT e.trigram FROM held AS e WHERE NOT e.everywhere)) AS h
             GROUP BY h.row_key
        ), counted AS MATERIALIZED (
            SELECT r.row_key, r.grams,
                   r.shared + COALESCE(c.shared, 0) + (SELECT pg_catalog.count(*) FROM held AS e WHERE e.everywhere) AS shared
              FROM rare AS r LEFT JOIN common AS c ON c.row_key = r.row_key
        )
        SELECT s.row_key, GREATEST(s.shared::real / s.grams, s.shared::real / pg_catalog.cardinality(v_grams)) AS bound
          FROM counted AS s
         WHERE 2 * s.shared >= LEAST(s.grams, pg_catalog.cardinality(v_grams))
         ORDER BY 2 DESC
    LOOP
        -- the bound is a double precision ratio and the similarities pg_trgm's real ones: 8/10
        -- as a double is below 0.8 as a real, so an exact comparison stopped at the first tie
        -- of the p_limit-th similarity and returned an arbitrary part of the tied names (the
        -- graph arm's seeds changed from one call to the next); the margin keeps every tie
        EXIT WHEN v_cand.bound < v_kth - 1e-6;
        SELECT memory._name_match(n.name, v_prepared) INTO v_sim
          FROM memory.nodes AS n
         WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = v_cand.row_key;
        IF v_sim IS NOT NULL THEN
            v_keys := v_keys OPERATOR(pg_catalog.||) v_cand.row_key;
            v_sims := v_sims OPERATOR(pg_catalog.||) v_sim;
            IF pg_catalog.cardinality(v_sims) >= p_limit THEN
                v_kth := (SELECT x.s FROM pg_catalog.unnest(v_sims) AS x (s) ORDER BY x.s DESC OFFSET p_limit - 1 LIMIT 1);
            END IF;
        END IF;
    END LOOP;
    RETURN QUERY SELECT u.k, u.s FROM ROWS FROM (pg_catalog.unnest(v_keys), pg_catalog.unnest(v_sims)) AS u (k, s) WHERE u.s >= v_kth;
END
$fn$;

COMMENT ON FUNCTION memory._name_candidates(uuid, uuid, text, integer) IS 'Internal: the entities whose names a text names or nearly names most closely (trigram word similarity >= 0.5), found through the trigram postings';
GRANT EXECUTE ON FUNCTION memory._name_candidates(uuid, uuid, text, integer) TO memory_reader;
