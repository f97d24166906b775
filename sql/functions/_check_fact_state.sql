-- Refuse a fact state a read does not know: NULL (22004) or anything but 'current',
-- 'historical' (ended or expired), 'future' and 'all' (22023).
CREATE OR REPLACE FUNCTION memory._check_fact_state(p_state text) RETURNS void
LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._not_null(p_state, 'p_state', 'pass ''current'', ''historical'', ''future'' or ''all''');
    IF p_state NOT IN ('current', 'historical', 'future', 'all') THEN
        RAISE EXCEPTION 'unknown fact state %', pg_catalog.quote_literal(memory._quote(p_state))
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass ''current'', ''historical'', ''future'' or ''all''';
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._check_fact_state(text) IS 'Internal: refuse a fact state other than current, historical, future or all (22004/22023)';
GRANT EXECUTE ON FUNCTION memory._check_fact_state(text) TO memory_reader;
