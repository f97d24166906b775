-- The registered embedding model of a name (memory.embedding_models): NULL 22004, a name
-- the table does not hold 22023 naming every model it does. The one place a model name
-- from a caller is checked.
CREATE OR REPLACE FUNCTION memory._model(p_model text) RETURNS memory.embedding_models
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT memory._not_null(p_model, 'p_model', 'pass the name of an embedding model (memory.list_models())');
    SELECT m.* FROM memory.embedding_models AS m
     WHERE m.model = memory._one_of('embedding model', p_model,
                                    ARRAY(SELECT k.model FROM memory.embedding_models AS k ORDER BY k.model),
                                    'pass one of the models memory.list_models() lists; a new model comes with a migration');
$fn$;

COMMENT ON FUNCTION memory._model(text) IS 'Internal: the registered embedding model of a name (22023 naming the known ones)';
GRANT EXECUTE ON FUNCTION memory._model(text) TO memory_reader, memory_admin;
