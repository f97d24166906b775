-- A list option of memory.recall (arms, kinds): the distinct names of the JSON array under
-- p_key, each one of p_allowed; NULL when the option is absent. Not an array, a name that
-- is not one of them (a null named as null) or an empty list: 22023 naming what is wrong.
CREATE OR REPLACE FUNCTION memory._recall_list(p_options jsonb, p_key text, p_allowed text[], p_what text)
RETURNS text[]
LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_hint  text := pg_catalog.format('%s: any of %s', p_key, pg_catalog.array_to_string(p_allowed, ', '));
    v_bad   text;
    v_names text[];
BEGIN
    IF NOT p_options ? p_key THEN
        RETURN NULL;
    END IF;
    IF pg_catalog.jsonb_typeof(p_options -> p_key) <> 'array' THEN
        RAISE EXCEPTION 'option % must be an array of % names', p_key, p_what
            USING ERRCODE = 'invalid_parameter_value', HINT = v_hint;
    END IF;
    SELECT pg_catalog.string_agg(COALESCE(pg_catalog.quote_literal(memory._quote(a.value #>> '{}')), 'null'), ', '),
           ARRAY(SELECT DISTINCT b.value #>> '{}' FROM pg_catalog.jsonb_array_elements(p_options -> p_key) AS b(value))
      INTO v_bad, v_names
      FROM pg_catalog.jsonb_array_elements(p_options -> p_key) AS a(value)
     WHERE pg_catalog.jsonb_typeof(a.value) <> 'string' OR NOT (a.value #>> '{}') = ANY (p_allowed);
    IF v_bad IS NOT NULL THEN
        RAISE EXCEPTION 'unknown % %', p_what, v_bad
            USING ERRCODE = 'invalid_parameter_value', HINT = v_hint;
    END IF;
    IF pg_catalog.cardinality(v_names) = 0 THEN
        RAISE EXCEPTION 'option % names no %', p_key, p_what
            USING ERRCODE = 'invalid_parameter_value', HINT = v_hint || '; leave it out for the default';
    END IF;
    RETURN v_names;
END
$fn$;

COMMENT ON FUNCTION memory._recall_list(jsonb, text, text[], text) IS 'Internal: a list option of memory.recall (arms, kinds), its distinct names, or 22023';
GRANT EXECUTE ON FUNCTION memory._recall_list(jsonb, text, text[], text) TO memory_reader;
