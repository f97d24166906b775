-- The words of a question for the words arm, each once, in the order they first appear:
-- `word` as written (a CJK bigram for Chinese), `query` the one-lexeme tsquery that finds it
-- (English stemmed, stop words dropped: the same parse as memory._words_doc). The tsquery is
-- built from the lexeme, quoted, never parsed from the text: '&', '|', '!', '<->', ':*',
-- quotes and parentheses in a question are punctuation, never query syntax.
CREATE OR REPLACE FUNCTION memory._words_query(p_text text)
RETURNS TABLE (word text, query tsquery)
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT w.token, w.query
  FROM (SELECT DISTINCT ON (d.lexemes[1]) d.token, d.n,
               (pg_catalog.chr(39)
                OPERATOR(pg_catalog.||) pg_catalog.replace(pg_catalog.replace(d.lexemes[1], '\', '\\'), pg_catalog.chr(39), '''''')
                OPERATOR(pg_catalog.||) pg_catalog.chr(39))::pg_catalog.tsquery AS query
          FROM pg_catalog.ts_debug('pg_catalog.english'::pg_catalog.regconfig, memory._words_text(p_text))
               WITH ORDINALITY AS d (alias, description, token, dictionaries, dictionary, lexemes, n)
         WHERE pg_catalog.cardinality(d.lexemes) > 0
         ORDER BY d.lexemes[1], d.n) AS w
 ORDER BY w.n
$fn$;

COMMENT ON FUNCTION memory._words_query(text) IS 'Internal: the words of a question, each once with its one-lexeme tsquery (query syntax in the text is read as words)';
REVOKE ALL ON FUNCTION memory._words_query(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._words_query(text) TO memory_reader;
