-- Refuse a query vector made by another model than the simulation's vectors (22023 naming
-- both): cosine similarity between two models' vectors means nothing, so such a search
-- would answer with noise and no error. p_model NULL names the default model (a vector that
-- names none is the default model's, memory._default_model()), so a caller who forgets the
-- model is refused on a simulation of another model rather than served noise; on a
-- simulation of the default model NULL passes, as every call before V0022 did. An unknown
-- model 22023 naming the known ones. The caller has entered the tenant.
CREATE OR REPLACE FUNCTION memory._check_query_model(p_tenant_id uuid, p_simulation_id uuid, p_model text)
RETURNS void
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_stored text;
BEGIN
    IF p_model IS NOT NULL THEN
        PERFORM memory._model(p_model);
    END IF;
    v_stored := (memory._simulation_model(p_tenant_id, p_simulation_id)).model;
    IF p_model IS NULL AND v_stored <> memory._default_model() THEN
        RAISE EXCEPTION 'the query vector names no model (taken as %), the vectors of simulation % are of model %',
                        pg_catalog.quote_literal(memory._default_model()), p_simulation_id, pg_catalog.quote_literal(v_stored)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('embed the question with %s and name it: p_model => %L (recall: option "model"; swarm-memory embed --tenant T --simulation S)',
                                           v_stored, v_stored);
    END IF;
    IF v_stored <> p_model THEN
        RAISE EXCEPTION 'the query vector is of model %, the vectors of simulation % are of model %',
                        pg_catalog.quote_literal(p_model), p_simulation_id, pg_catalog.quote_literal(v_stored)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('embed the question with %s (memory.model_of() names a simulation''s model)', v_stored);
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._check_query_model(uuid, uuid, text) IS 'Internal: refuse (22023) a query vector of another model than the simulation''s; NULL names the default model';
GRANT EXECUTE ON FUNCTION memory._check_query_model(uuid, uuid, text) TO memory_reader;
