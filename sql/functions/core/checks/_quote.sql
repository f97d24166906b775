-- A value as an error message quotes it: at most memory._limit('quoted_chars') characters,
-- then how long the whole was. A message never echoes a huge argument whole (a server log
-- would grow by its size at every refusal). NULL stays NULL (RAISE prints <NULL>).
CREATE OR REPLACE FUNCTION memory._quote(p_value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE WHEN pg_catalog.char_length(p_value) <= memory._limit('quoted_chars') THEN p_value
                ELSE pg_catalog.left(p_value, memory._limit('quoted_chars')::integer)
                     || pg_catalog.format('... (%s characters)', pg_catalog.char_length(p_value)) END
$fn$;

COMMENT ON FUNCTION memory._quote(text) IS 'Internal: a value cut to memory._limit(''quoted_chars'') characters for an error message';
GRANT EXECUTE ON FUNCTION memory._quote(text) TO memory_reader, memory_writer, memory_admin;
