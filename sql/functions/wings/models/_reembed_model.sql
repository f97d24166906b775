-- The model a re-embed computes (memory._model: NULL 22004, unknown 22023), refused with
-- 0A000 when it is wider than the stored columns (memory._stored_dimensions): its vectors
-- need a migration of their own that widens them first. A narrower model's vectors are
-- stored zero-padded (V0027), which keeps their cosine similarities.
CREATE OR REPLACE FUNCTION memory._reembed_model(p_model text) RETURNS memory.embedding_models
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_model memory.embedding_models := memory._model(p_model);
BEGIN
    IF v_model.dimensions <= memory._stored_dimensions() THEN
        RETURN v_model;
    END IF;
    RAISE EXCEPTION 'model % has % dimensions; the memory stores vectors of %', pg_catalog.quote_literal(p_model),
                    v_model.dimensions, memory._stored_dimensions()
        USING ERRCODE = 'feature_not_supported',
              HINT = 'a model wider than the vector columns needs a migration that widens them';
END
$fn$;

COMMENT ON FUNCTION memory._reembed_model(text) IS 'Internal: the model a re-embed computes; 0A000 for a model wider than the stored columns';
GRANT EXECUTE ON FUNCTION memory._reembed_model(text) TO memory_writer;
