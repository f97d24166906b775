-- Refuse a value over a limit of memory._limit() with 54000 (program_limit_exceeded),
-- naming what was measured, the limit and both numbers. A NULL value passes (nothing to
-- measure). Called before the work the limit bounds, so nothing of the call is written.
-- The hint says how to come within the limit (a shorter question, a smaller sample, a
-- split batch).
CREATE OR REPLACE FUNCTION memory._check_limit(p_limit text, p_what text, p_value bigint) RETURNS void
LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_max bigint := memory._limit(p_limit);
BEGIN
    IF p_value > v_max THEN
        RAISE EXCEPTION '% exceeds the limit %: % > %', memory._quote(p_what), p_limit, p_value, v_max
            USING ERRCODE = 'program_limit_exceeded',
                  HINT = CASE p_limit
                      WHEN 'question_bytes' THEN
                          pg_catalog.format('shorten the question to at most %s bytes: its key words and names '
                                            '(memory._limit(%L))', v_max, p_limit)
                      WHEN 'health_sample' THEN
                          pg_catalog.format('ask for at most %s sampled queries (memory._limit(%L)); 0 skips the check',
                                            v_max, p_limit)
                      ELSE pg_catalog.format('nothing was written; split the work or shorten the value '
                                             '(memory._limit(%L) = %s)', p_limit, v_max) END;
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._check_limit(text, text, bigint) IS 'Internal: refuse a value over a limit of memory._limit() (54000, naming the limit and the value)';
GRANT EXECUTE ON FUNCTION memory._check_limit(text, text, bigint) TO memory_reader, memory_writer, memory_admin;
