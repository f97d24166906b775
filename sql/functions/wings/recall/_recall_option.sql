-- A numeric option of memory.recall: p_default when p_options lacks p_key; else a JSON
-- number within [p_min, p_max] (p_min exclusive when p_max is NULL: k > 0), or 22023
-- naming the option.
CREATE OR REPLACE FUNCTION memory._recall_option(p_options jsonb, p_key text, p_default double precision,
                                                 p_min double precision, p_max double precision)
RETURNS double precision
LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_value  jsonb := p_options -> p_key;
    v_number double precision;
BEGIN
    IF v_value IS NULL THEN
        RETURN p_default;
    END IF;
    -- a number past a double precision (1e400) is refused with the others, never cast
    IF pg_catalog.jsonb_typeof(v_value) = 'number'
       AND pg_catalog.pg_input_is_valid(v_value #>> '{}', 'double precision') THEN
        v_number := (v_value #>> '{}')::double precision;
    END IF;
    IF v_number IS NULL
       OR (p_max IS NULL AND v_number <= p_min)
       OR (p_max IS NOT NULL AND v_number NOT BETWEEN p_min AND p_max) THEN
        RAISE EXCEPTION 'option % must be a number %, not %', p_key,
                        CASE WHEN p_max IS NULL THEN '> ' || p_min ELSE 'from ' || p_min || ' to ' || p_max END,
                        pg_catalog.left(v_value::text, 40)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'see memory.recall''s options';
    END IF;
    RETURN v_number;
END
$fn$;

COMMENT ON FUNCTION memory._recall_option(jsonb, text, double precision, double precision, double precision) IS 'Internal: a numeric option of memory.recall, its default, or 22023';
GRANT EXECUTE ON FUNCTION memory._recall_option(jsonb, text, double precision, double precision, double precision) TO memory_reader;
