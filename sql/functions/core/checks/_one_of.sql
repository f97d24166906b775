-- The one rule for a name a caller passes from a closed list (a limit, a fact state, an
-- embedding model, ...): a name in p_known is returned as it is; anything else, NULL
-- included, is 22023 naming the value (quoted, at most memory._limit('quoted_chars')
-- characters) and every name it could have been, with p_hint (or "pass one of them").
CREATE OR REPLACE FUNCTION memory._one_of(p_what text, p_value text, p_known text[], p_hint text DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF p_value = ANY (p_known) THEN
        RETURN p_value;
    END IF;
    RAISE EXCEPTION 'unknown % %; known: %', p_what, COALESCE(pg_catalog.quote_literal(memory._quote(p_value)), 'NULL'),
                    pg_catalog.array_to_string(p_known, ', ')
        USING ERRCODE = 'invalid_parameter_value', HINT = COALESCE(p_hint, 'pass one of them');
END
$fn$;

COMMENT ON FUNCTION memory._one_of(text, text, text[], text) IS 'Internal: a name from a closed list, or 22023 naming the value and the list';
GRANT EXECUTE ON FUNCTION memory._one_of(text, text, text[], text) TO memory_reader, memory_writer, memory_admin;
