-- The registered embedding model of a name (memory.embedding_models): NULL 22004, a name
-- the table does not hold 22023 naming every model it does. The one place a model name
-- from a caller is checked.
CREATE OR REPLACE FUNCTION memory._model(p_model text) RETURNS memory.embedding_models
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_model memory.embedding_models;
BEGIN
    PERFORM memory._not_null(p_model, 'p_model', 'pass the name of an embedding model (memory.list_models())');
    SELECT * INTO v_model FROM memory.embedding_models AS m WHERE m.model = p_model;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown embedding model %; known models: %', pg_catalog.quote_literal(memory._quote(p_model)),
                        (SELECT pg_catalog.string_agg(m.model, ', ' ORDER BY m.model) FROM memory.embedding_models AS m)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'pass one of the models memory.list_models() lists; a new model comes with a migration';
    END IF;
    RETURN v_model;
END
$fn$;

COMMENT ON FUNCTION memory._model(text) IS 'Internal: the registered embedding model of a name (22023 naming the known ones)';
GRANT EXECUTE ON FUNCTION memory._model(text) TO memory_reader, memory_admin;
