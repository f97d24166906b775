-- Refuse a query vector made by another model than the simulation's vectors (22023 naming
-- both): cosine similarity between two models' vectors means nothing, so such a search
-- would answer with noise. p_model NULL checks nothing (the searches' behaviour before
-- V0022; the Python client always passes its embedder's model); an unknown model 22023
-- naming the known ones. The caller has entered the tenant.
CREATE OR REPLACE FUNCTION memory._check_query_model(p_tenant_id uuid, p_simulation_id uuid, p_model text)
RETURNS void
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_stored text;
BEGIN
    IF p_model IS NULL THEN
        RETURN;
    END IF;
    PERFORM memory._model(p_model);
    v_stored := (memory._simulation_model(p_tenant_id, p_simulation_id)).model;
    IF v_stored <> p_model THEN
        RAISE EXCEPTION 'the query vector is of model %, the vectors of simulation % are of model %',
                        pg_catalog.quote_literal(p_model), p_simulation_id, pg_catalog.quote_literal(v_stored)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('embed the question with %s (memory.model_of() names a simulation''s model)', v_stored);
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._check_query_model(uuid, uuid, text) IS 'Internal: refuse (22023) a query vector of another model than the simulation''s; NULL checks nothing';
GRANT EXECUTE ON FUNCTION memory._check_query_model(uuid, uuid, text) TO memory_reader;
