-- Refuse a NULL argument with 22004 (null_value_not_allowed), naming it and saying what to
-- pass: the one home of the refusal every function that takes a required argument states.
CREATE OR REPLACE FUNCTION memory._not_null(p_value anyelement, p_arg text, p_hint text) RETURNS void
LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF p_value IS NULL THEN
        RAISE EXCEPTION '% must not be NULL', p_arg
            USING ERRCODE = 'null_value_not_allowed', HINT = p_hint;
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._not_null(anyelement, text, text) IS 'Internal: refuse a NULL argument (22004, naming it, with a hint)';
GRANT EXECUTE ON FUNCTION memory._not_null(anyelement, text, text) TO memory_reader, memory_writer, memory_admin;
