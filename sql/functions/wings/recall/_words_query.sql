-- The words of a question for the words arm, each once, in the order they first appear:
-- `word` as written (a CJK bigram for Chinese) and `lexeme` the word as the documents hold it
-- (English stemmed, stop words dropped: the same parse as memory._words_doc), which
-- memory.word_postings is keyed by. Nothing in the text is ever read as query syntax:
-- '&', '|', '!', '<->', ':*', quotes and parentheses are punctuation.
CREATE OR REPLACE FUNCTION memory._words_query(p_text text)
RETURNS TABLE (word text, lexeme text)
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT w.token, w.lexeme
  FROM (SELECT DISTINCT ON (d.lexemes[1]) d.token, d.n, d.lexemes[1] AS lexeme
          FROM pg_catalog.ts_debug('pg_catalog.english'::pg_catalog.regconfig, memory._words_text(p_text))
               WITH ORDINALITY AS d (alias, description, token, dictionaries, dictionary, lexemes, n)
         WHERE pg_catalog.cardinality(d.lexemes) > 0
         ORDER BY d.lexemes[1], d.n) AS w
 ORDER BY w.n
$fn$;

COMMENT ON FUNCTION memory._words_query(text) IS 'Internal: the words of a question, each once with its lexeme (query syntax in the text is read as words)';
GRANT EXECUTE ON FUNCTION memory._words_query(text) TO memory_reader;
