-- The words arm: full-text search over a simulation's episodes (content), facts (edges.fact)
-- and entities (name, then summary), best first, ties by kind and id. The question is read
-- as words, never as query syntax (memory._words_query); English is stemmed, Chinese and
-- other CJK runs are matched as character bigrams. Read through memory.word_postings (V0020)
-- by equality on (tenant_id, simulation_id, word), which row-level security lets the primary
-- key serve: each word's document frequency is counted up to memory._limit('word_candidates')
-- (300), and the candidates are at most that many rows: those holding the rarest word, then
-- the next rarest, and so on (a common word matches tens of thousands of rows and each
-- ranked costs; when the rarest word is at most that frequent, every row holding all the
-- words is a candidate). Each word's postings are then read for all the candidates at
-- once (memory._search_words, the work). Score: s / (s + 1) of a BM25 sum over the question's
-- words the row holds (occurrences saturating with k1 1.2, shorter documents first with b
-- 0.75 around 16 words, rarer words weighing more: idf ln(1 + 301 / frequency), a word of an entity's summary 0.4 of one in its name). An entity
-- whose name the question names or nearly names (memory._name_candidates, the ten closest
-- names: misspellings, a Chinese name inside a sentence) scores at least that similarity. `matched` lists the
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
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._words_prepare(p_query_text, 'p_query_text');
    IF p_kinds IS NOT NULL AND (pg_catalog.cardinality(p_kinds) = 0
                                OR NOT p_kinds OPERATOR(pg_catalog.<@) ARRAY['episode', 'fact', 'entity']) THEN
        RAISE EXCEPTION 'p_kinds % names no kind or an unknown one', memory._quote(p_kinds::text)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'pass some of episode, fact, entity, or NULL for all';
    END IF;
    RETURN QUERY SELECT w.kind, w.id, w.text, w.score, w.matched FROM memory._search_words(
        p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
        p_query_text => p_query_text, p_top_k => p_top_k, p_kinds => p_kinds,
        p_name_keys => NULL, p_name_sims => NULL) AS w;
END
$fn$;

COMMENT ON FUNCTION memory.search_words(uuid, uuid, text, integer, text[]) IS 'Words arm: full-text search (English stemmed, CJK bigrams) over episodes, facts and entities with trigram name matching, best first; top_k clamped to 1..100';
GRANT EXECUTE ON FUNCTION memory.search_words(uuid, uuid, text, integer, text[]) TO memory_reader;
