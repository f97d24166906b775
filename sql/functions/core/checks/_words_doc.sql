-- The text search document of a row for the words arm: p_text with weight A and p_more (an
-- entity's summary beside its name) with weight B, parsed with the 'english' configuration
-- (English words stemmed, stop words dropped, other scripts kept as they are), CJK runs cut
-- into bigrams by memory._words_text (called only for a text that has CJK: the per-row cost
-- of a text without is one regular-expression test over plain to_tsvector). NULL for a row
-- without text (p_text NULL), which no query matches. IMMUTABLE: the expression of the words indexes
-- of V0017 (episodes_words_idx, edges_words_idx, nodes_words_idx), which memory.search_words
-- repeats exactly so that the planner uses them.
CREATE OR REPLACE FUNCTION memory._words_doc(p_text text, p_more text DEFAULT NULL) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig,
           CASE WHEN p_text OPERATOR(pg_catalog.!~) '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]'
                THEN p_text ELSE memory._words_text(p_text) END), 'A')
       OPERATOR(pg_catalog.||)
       CASE WHEN p_more IS NULL THEN ''::pg_catalog.tsvector
            ELSE pg_catalog.setweight(pg_catalog.to_tsvector('pg_catalog.english'::pg_catalog.regconfig,
                     memory._words_text(p_more)), 'B') END
$fn$;

COMMENT ON FUNCTION memory._words_doc(text, text) IS 'Internal: the words document of a row (text weight A, more weight B; CJK as bigrams; english configuration), the expression of the words indexes';
GRANT EXECUTE ON FUNCTION memory._words_doc(text, text) TO memory_reader, memory_writer;
