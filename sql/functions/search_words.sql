-- The words arm: full-text search over a simulation's episodes (content), facts (edges.fact)
-- and entities (name, then summary), best first, ties by kind and id. The question is read
-- as words, never as query syntax (memory._words_query); English is stemmed, Chinese and
-- other CJK runs are matched as character bigrams. A row matches when it holds any of the
-- question's words (through episodes_words_idx, edges_words_idx, nodes_words_idx over the
-- stored documents, V0017); at most memory._limit('word_candidates') episodes holding all
-- the words and as many holding any are ranked (a common word matches too many). Score:
-- (words matched + ts_rank_cd(document, any word, 1|32)) / (words + 1), so a row holding more
-- of the question's distinct words always ranks above one holding fewer, and among equals
-- the cover density rank decides (occurrences, a name above a summary, shorter documents
-- first; normalisation 32 keeps it below 1). No IDF: every word counts the same. An entity
-- whose name the question names or nearly names (memory._name_match: misspellings, a
-- Chinese name inside a sentence) scores at least that similarity. `matched` lists the
-- question's words the row holds (a name match adds '~' and the name). Time is not this
-- arm's concern: every fact, current or not. p_top_k clamped to 1..100 (NULL means 10);
-- p_kinds narrows to some of 'episode', 'fact', 'entity' (NULL: all).
CREATE OR REPLACE FUNCTION memory.search_words(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query_text text,
    p_top_k integer DEFAULT 10,
    p_kinds text[] DEFAULT NULL)
RETURNS TABLE (kind text, id text, text text, score real, matched text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_words   text[];
    v_queries pg_catalog.tsquery[];
    v_any     pg_catalog.tsquery;
    v_all     pg_catalog.tsquery;
    v_cap     integer := memory._limit('word_candidates');
    v_prepared text;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    v_prepared := memory._words_prepare(p_query_text, 'p_query_text');
    IF p_kinds IS NOT NULL AND (pg_catalog.cardinality(p_kinds) = 0
                                OR NOT p_kinds OPERATOR(pg_catalog.<@) ARRAY['episode', 'fact', 'entity']) THEN
        RAISE EXCEPTION 'p_kinds % names no kind or an unknown one', memory._quote(p_kinds::text)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'pass some of episode, fact, entity, or NULL for all';
    END IF;
    SELECT pg_catalog.array_agg(q.word), pg_catalog.array_agg(q.query),
           pg_catalog.string_agg(q.query::text, ' | ')::pg_catalog.tsquery,
           pg_catalog.string_agg(q.query::text, ' & ')::pg_catalog.tsquery
      INTO v_words, v_queries, v_any, v_all
      FROM memory._words_query(p_query_text) AS q;
    PERFORM memory._check_limit('list_elements', 'words of p_query_text', pg_catalog.cardinality(v_words));
    RETURN QUERY
    -- Candidates, each set at most memory._limit('word_candidates') rows, in no order: the
    -- episodes holding all of the question's words, then the episodes and facts holding any:
    -- a common word matches tens of thousands of rows and each ranked costs, and the rows
    -- holding every word rank first whatever else matches.
    WITH hits AS MATERIALIZED (
        SELECT DISTINCT ON (c.kind, c.id) c.*
          FROM ((SELECT 'episode'::text AS kind, e.episode_id AS id, e.content AS body, e.words AS doc,
                        NULL::real AS name_score, NULL::text AS name
                   FROM memory.episodes AS e
                  WHERE v_all IS NOT NULL AND (p_kinds IS NULL OR 'episode' = ANY (p_kinds))
                    AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                    AND e.words OPERATOR(pg_catalog.@@) v_all
                  LIMIT v_cap)
                UNION ALL
                (SELECT 'episode'::text, e.episode_id, e.content, e.words, NULL::real, NULL::text
                   FROM memory.episodes AS e
                  WHERE v_any IS NOT NULL AND (p_kinds IS NULL OR 'episode' = ANY (p_kinds))
                    AND e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                    AND e.words OPERATOR(pg_catalog.@@) v_any
                  LIMIT v_cap)
                UNION ALL
                (SELECT 'fact', g.edge_id, g.fact, g.words, NULL, NULL
                   FROM memory.edges AS g
                  WHERE v_any IS NOT NULL AND (p_kinds IS NULL OR 'fact' = ANY (p_kinds))
                    AND g.tenant_id = p_tenant_id AND g.simulation_id = p_simulation_id
                    AND g.words OPERATOR(pg_catalog.@@) v_any
                  LIMIT v_cap)
                UNION ALL
                SELECT 'entity', n.node_id, n.name OPERATOR(pg_catalog.||) COALESCE(': ' OPERATOR(pg_catalog.||) n.summary, ''),
                       n.words, m.score, n.name
                  FROM memory.nodes AS n
                 -- the name's similarity once a row, for the filter and the score (OFFSET 0: not pulled up into both)
                 CROSS JOIN LATERAL (SELECT memory._name_match(n.name, v_prepared) AS score OFFSET 0) AS m
                 WHERE (p_kinds IS NULL OR 'entity' = ANY (p_kinds))
                   AND n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                   AND (n.words OPERATOR(pg_catalog.@@) v_any OR m.score IS NOT NULL)) AS c
         ORDER BY c.kind, c.id
    ), scored AS (
        SELECT h.kind, h.id, h.body,
               GREATEST((m.hits + CASE WHEN v_any IS NULL THEN 0
                                       ELSE pg_catalog.ts_rank_cd(h.doc, v_any, 1 | 32) END)
                        / (COALESCE(pg_catalog.cardinality(v_queries), 0) + 1),
                        h.name_score)::real AS score,
               pg_catalog.concat_ws(' ', m.words,
                                    CASE WHEN h.name_score IS NOT NULL THEN '~' OPERATOR(pg_catalog.||) h.name END) AS matched
          FROM hits AS h
          CROSS JOIN LATERAL (
              SELECT pg_catalog.count(*) AS hits, pg_catalog.string_agg(u.word, ' ' ORDER BY u.n) AS words
                FROM ROWS FROM (pg_catalog.unnest(v_words), pg_catalog.unnest(v_queries)) WITH ORDINALITY AS u (word, query, n)
               WHERE h.doc OPERATOR(pg_catalog.@@) u.query) AS m
    )
    SELECT s.kind, s.id, s.body, s.score, s.matched
      FROM scored AS s
     WHERE s.score > 0
     ORDER BY s.score DESC, s.kind, s.id
     LIMIT LEAST(GREATEST(COALESCE(p_top_k, 10), 1), 100);
END
$fn$;

COMMENT ON FUNCTION memory.search_words(uuid, uuid, text, integer, text[]) IS 'Words arm: full-text search (English stemmed, CJK bigrams) over episodes, facts and entities with trigram name matching, best first; top_k clamped to 1..100';
REVOKE ALL ON FUNCTION memory.search_words(uuid, uuid, text, integer, text[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.search_words(uuid, uuid, text, integer, text[]) TO memory_reader;
