-- Check a question's text for the words arm and return it prepared for name matching
-- (lower case, CJK runs as bigrams: the p_words of memory._name_match): NULL is refused with
-- 22004, a text of nothing but white space with 22023, one over memory._limit('question_bytes')
-- with 54000 (before any of its words or names is read), each naming p_arg.
CREATE OR REPLACE FUNCTION memory._words_prepare(p_text text, p_arg text) RETURNS text
LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._not_null(p_text, p_arg, 'pass the words to look for');
    PERFORM memory._check_limit('question_bytes', p_arg, pg_catalog.octet_length(p_text));
    IF p_text OPERATOR(pg_catalog.!~) '[^[:space:]]' THEN
        RAISE EXCEPTION '% has no words: %', p_arg, memory._quote(pg_catalog.quote_literal(p_text))
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'pass at least one word';
    END IF;
    RETURN pg_catalog.lower(memory._words_text(p_text));
END
$fn$;

COMMENT ON FUNCTION memory._words_prepare(text, text) IS 'Internal: refuse a NULL (22004), blank (22023) or too long (54000) question; the text prepared for name matching';
GRANT EXECUTE ON FUNCTION memory._words_prepare(text, text) TO memory_reader;
