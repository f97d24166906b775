-- memory.search_words' work, for a caller that has entered the tenant, checked the text and
-- the kinds: p_name_keys / p_name_sims, when not NULL, are the entities the text names
-- (memory._name_candidates(..., LEAST(top_k, 10)), which memory.recall computes once for
-- its words and graph arms); NULL, they are found here. cover: the share of the question
-- that the row explains, its words' idf over the question's (a word no row holds counts
-- as the rarest), 1 for an entity found by name; memory.recall trusts the arm by it.
--
-- The plan is generic, made once a session and cached (force_generic_plan, as
-- memory.neighbors'): the statement's shape is fixed by its materialized steps and lateral
-- lookups, every one a scan of the postings' primary key with the word as an index
-- condition, so planning it again for each call's values bought nothing but the planning
-- (measured with each plan mode in turn, the same rows: bench/README.md). On a Citus
-- cluster memory._use_custom_plans makes it plan each call again (a generic plan cannot be
-- routed). The setting holds for the functions it calls as well (memory._name_candidates,
-- memory._words_query): their statements are keyed lookups too, and the rows were the same
-- for every question measured.
CREATE OR REPLACE FUNCTION memory._search_words(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query_text text,
    p_top_k integer,
    p_kinds text[],
    p_name_keys uuid[],
    p_name_sims real[])
RETURNS TABLE (kind text, id text, text text, score real, matched text, cover real)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
    v_words   text[];
    v_lexemes text[];
    v_kinds   "char"[];
    v_cap     integer := memory._limit('word_candidates');
    v_top     integer := memory._top_k(p_top_k);
BEGIN
    v_kinds := ARRAY(SELECT DISTINCT CASE k WHEN 'episode' THEN 'e' WHEN 'fact' THEN 'f' ELSE 'n' END::"char"
                       FROM pg_catalog.unnest(COALESCE(p_kinds, ARRAY['episode', 'fact', 'entity'])) AS k);
    SELECT pg_catalog.array_agg(q.word), pg_catalog.array_agg(q.lexeme) INTO v_words, v_lexemes
      FROM memory._words_query(p_query_text) AS q;
    PERFORM memory._check_limit('list_elements', 'words of p_query_text', pg_catalog.cardinality(v_words));
    RETURN QUERY
    WITH q AS MATERIALIZED (
        -- each word with its document frequency, counted up to the cap
        SELECT u.n, u.word, u.lexeme,
               (SELECT pg_catalog.count(*) FROM (
                    SELECT 1 FROM memory.word_postings AS p
                     WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                       AND p.word = u.lexeme AND p.kind = ANY (v_kinds)
                     LIMIT v_cap + 1) AS c) AS df
          FROM ROWS FROM (pg_catalog.unnest(v_words), pg_catalog.unnest(v_lexemes)) WITH ORDINALITY AS u (word, lexeme, n)
    ), seeds AS MATERIALIZED (
        -- the candidates: the rows holding the rarest word, then the next rarest, ... while
        -- fewer than the cap are taken (the rows of the rarest word are all taken when it is
        -- at most that frequent, so every row holding all the words is a candidate then)
        SELECT DISTINCT p.kind, p.row_key
          FROM (SELECT r.lexeme, r.df,
                       COALESCE(pg_catalog.sum(r.df) OVER (ORDER BY r.df, r.n ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS before
                  FROM q AS r WHERE r.df > 0) AS w
         CROSS JOIN LATERAL (SELECT p.kind, p.row_key FROM memory.word_postings AS p
                              WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                                AND p.word = w.lexeme AND p.kind = ANY (v_kinds)
                              LIMIT v_cap - w.before) AS p
         WHERE w.before < v_cap
    ), names AS MATERIALIZED (
        SELECT c.node_key, c.similarity FROM memory._name_candidates(p_tenant_id, p_simulation_id, p_query_text, LEAST(v_top, 10)) AS c
         WHERE 'n' = ANY (v_kinds) AND p_name_keys IS NULL
        UNION ALL
        SELECT u.node_key, u.similarity FROM ROWS FROM (pg_catalog.unnest(p_name_keys), pg_catalog.unnest(p_name_sims)) AS u (node_key, similarity)
         WHERE 'n' = ANY (v_kinds)
    ), cand AS MATERIALIZED (
        SELECT s.kind, s.row_key FROM seeds AS s UNION SELECT 'n'::"char", n.node_key FROM names AS n
    ), held AS MATERIALIZED (
        -- the question's words each candidate holds: one scan of the postings a word, for
        -- the candidates' keys at once (ScalarArrayOp on the primary key's last column; a
        -- key of another kind than its candidate's joins nothing below)
        SELECT p.kind, p.row_key, q.n, q.word, q.df, p.tf, p.weight, p.doc_len
          FROM q CROSS JOIN LATERAL (
                   SELECT p.kind, p.row_key, p.tf, p.weight, p.doc_len FROM memory.word_postings AS p
                    WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
                      AND p.word = q.lexeme AND p.kind = ANY (v_kinds)
                      AND p.row_key = ANY (ARRAY(SELECT c.row_key FROM cand AS c))
                   OFFSET 0) AS p
    ), scored AS MATERIALIZED (
        SELECT c.kind, c.row_key,
               GREATEST(COALESCE(h.s / (h.s + 1), 0), nm.similarity)::real AS score,
               h.words, nm.similarity AS name_score,
               CASE WHEN nm.similarity IS NOT NULL THEN 1
                    ELSE COALESCE(h.idf, 0) / NULLIF((SELECT pg_catalog.sum(pg_catalog.ln(1 + (v_cap + 1)::double precision / GREATEST(a.df, 1)))
                                                       FROM q AS a), 0) END::real AS cover
          FROM cand AS c
          LEFT JOIN names AS nm ON c.kind = 'n' AND nm.node_key = c.row_key
          LEFT JOIN (
              SELECT p.kind, p.row_key,
                     -- (summed in the question's word order, whatever the plan: the same
                     -- rounding, so the same ties, every time)
                     pg_catalog.sum(pg_catalog.ln(1 + (v_cap + 1)::double precision / GREATEST(p.df, 1))
                                    * CASE p.weight WHEN 'A' THEN 1.0 ELSE 0.4 END
                                    * p.tf * 2.2 / (p.tf + 1.2 * (0.25 + 0.75 * p.doc_len / 16.0)) ORDER BY p.n) AS s,
                     pg_catalog.string_agg(p.word, ' ' ORDER BY p.n) AS words,
                     pg_catalog.sum(pg_catalog.ln(1 + (v_cap + 1)::double precision / GREATEST(p.df, 1)) ORDER BY p.n) AS idf
                FROM held AS p
               GROUP BY p.kind, p.row_key) AS h ON h.kind = c.kind AND h.row_key = c.row_key
    ), best AS (
        -- the top rows and every row tied with the last of them (ties go by kind and id)
        SELECT s.* FROM scored AS s
         WHERE s.score > 0
           AND s.score >= (SELECT pg_catalog.min(t.score) FROM (SELECT r.score FROM scored AS r WHERE r.score > 0
                                                                  ORDER BY r.score DESC LIMIT v_top) AS t)
    )
    SELECT r.kind, r.id, r.body, b.score,
           pg_catalog.concat_ws(' ', b.words,
                                CASE WHEN b.name_score IS NOT NULL THEN '~' OPERATOR(pg_catalog.||) r.name END),
           b.cover
      FROM best AS b
     CROSS JOIN LATERAL (
         SELECT 'episode'::text AS kind, e.episode_id AS id, e.content AS body, NULL::text AS name
           FROM memory.episodes AS e
          WHERE b.kind = 'e' AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id AND e.episode_key = b.row_key
         UNION ALL
         SELECT 'fact', g.edge_id, g.fact, NULL
           FROM memory.edges AS g
          WHERE b.kind = 'f' AND g.tenant_id = p_tenant_id AND g.simulation_id = p_simulation_id AND g.edge_key = b.row_key
         UNION ALL
         SELECT 'entity', n.node_id, n.name OPERATOR(pg_catalog.||) COALESCE(': ' OPERATOR(pg_catalog.||) n.summary, ''), n.name
           FROM memory.nodes AS n
          WHERE b.kind = 'n' AND n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id AND n.node_key = b.row_key) AS r
     ORDER BY b.score DESC, r.kind, r.id
     LIMIT v_top;
END
$fn$;

COMMENT ON FUNCTION memory._search_words(uuid, uuid, text, integer, text[], uuid[], real[]) IS 'Internal: the words arm of memory.search_words for a caller that has entered the tenant, with the named entities optionally given';
GRANT EXECUTE ON FUNCTION memory._search_words(uuid, uuid, text, integer, text[], uuid[], real[]) TO memory_reader;
