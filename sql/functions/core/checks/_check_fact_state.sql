-- Refuse a fact state a read does not know: NULL (22004) or anything but 'current',
-- 'historical' (ended or expired), 'future' and 'all' (22023).
CREATE OR REPLACE FUNCTION memory._check_fact_state(p_state text) RETURNS void
LANGUAGE sql IMMUTABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT memory._not_null(p_state, 'p_state', 'pass ''current'', ''historical'', ''future'' or ''all''');
    SELECT memory._one_of('fact state', p_state, '{current, historical, future, all}');
$fn$;

COMMENT ON FUNCTION memory._check_fact_state(text) IS 'Internal: refuse a fact state other than current, historical, future or all (22004/22023)';
GRANT EXECUTE ON FUNCTION memory._check_fact_state(text) TO memory_reader;
