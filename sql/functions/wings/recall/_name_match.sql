-- How nearly a text names an entity: pg_trgm's word_similarity of the name within the text
-- (the best run of the text's words against the name's trigrams, so a name inside a
-- sentence or misspelt by a letter or two still scores) or of the text within the name (a
-- short text naming part of it: 'Lindqvst' for Sofia Lindqvist), both lower case and with their CJK
-- runs cut into bigrams (memory._words_text) so that a Chinese name inside a Chinese
-- sentence, which has no spaces, scores 1. p_words is the text already so prepared
-- (pg_catalog.lower(memory._words_text(text)), once a call). NULL below 0.5, the one home of
-- that threshold (memory._name_candidates, for memory.match_entities, memory.search_words
-- and memory.recall). plpgsql, not sql: a SQL function with a SET clause is never inlined,
-- and its call cost more than a plpgsql one's, with memory._name_candidates calling it
-- once a candidate compared.
CREATE OR REPLACE FUNCTION memory._name_match(p_name text, p_words text) RETURNS real
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_name       text := pg_catalog.lower(memory._words_text(p_name));
    v_similarity real := GREATEST(public.word_similarity(v_name, p_words), public.word_similarity(p_words, v_name));
BEGIN
    RETURN CASE WHEN v_similarity >= 0.5 THEN v_similarity END;
END
$fn$;

COMMENT ON FUNCTION memory._name_match(text, text) IS 'Internal: trigram word_similarity of a name within a prepared text (CJK as bigrams), NULL below 0.5';
GRANT EXECUTE ON FUNCTION memory._name_match(text, text) TO memory_reader;
