-- A text as the words arm reads it. Runs of CJK characters (Han, kana, Hangul) have no
-- spaces between words and no core text search parser splits them: each run is cut into
-- its overlapping character bigrams (a run ABCDE of five Han characters -> 'AB BC CD DE'; a run of one character
-- stays one) and put after the rest of the text, whose words are left for the parser. The
-- order of words changes, which the words arm never reads (it ranks by words matched and by
-- ts_rank_cd of an OR query, whose covers are single words). A text without CJK comes back
-- as it is after one regular-expression test.
-- IMMUTABLE and read by the words indexes of V0017 (through memory._words_doc): a change here
-- changes what the indexes hold, so it ships with a migration that rebuilds them.
CREATE OR REPLACE FUNCTION memory._words_text(p_text text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT CASE WHEN p_text OPERATOR(pg_catalog.!~) '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]'
            THEN p_text
            ELSE pg_catalog.regexp_replace(p_text, '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+', ' ', 'g')
                 OPERATOR(pg_catalog.||) ' ' OPERATOR(pg_catalog.||)
                 (SELECT pg_catalog.string_agg(pg_catalog.substr(r.run[1], i.i, 2), ' ')
                    FROM pg_catalog.regexp_matches(p_text, '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+', 'g') AS r (run),
                         pg_catalog.generate_series(1, GREATEST(pg_catalog.char_length(r.run[1]) - 1, 1)) AS i (i)) END
$fn$;

COMMENT ON FUNCTION memory._words_text(text) IS 'Internal: a text with its CJK runs cut into overlapping character bigrams (IMMUTABLE, read by the words indexes)';
GRANT EXECUTE ON FUNCTION memory._words_text(text) TO memory_reader, memory_writer;
