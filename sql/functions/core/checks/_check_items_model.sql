-- Refuse a batch of rows whose vectors come from another model than the simulation's
-- (memory._simulation_model): an item's embedding_model, or the default model where it
-- names none (as the merge stores it). A simulation holds the vectors of one model, so that
-- a search compares like with like; an upsert that mixed them would leave rows no question
-- can rank. 22023 naming the models and the simulation's; nothing written. A simulation with
-- no vector and no model of its own takes its tenant's (memory.set_model names another
-- first). The caller has entered the tenant.
CREATE OR REPLACE FUNCTION memory._check_items_model(p_tenant_id uuid, p_simulation_id uuid, p_items jsonb)
RETURNS void
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_models text[];
    v_stored text;
BEGIN
    SELECT pg_catalog.array_agg(DISTINCT COALESCE(i.value ->> 'embedding_model', memory._default_model()))
      INTO v_models
      FROM pg_catalog.jsonb_array_elements(p_items) AS i(value)
     WHERE pg_catalog.jsonb_typeof(i.value -> 'embedding') = 'array'
        OR pg_catalog.jsonb_typeof(i.value -> 'summary_embedding') = 'array';
    IF v_models IS NULL THEN
        RETURN;
    END IF;
    v_stored := (memory._simulation_model(p_tenant_id, p_simulation_id)).model;
    IF v_models <> ARRAY[v_stored] THEN
        RAISE EXCEPTION 'vectors of model % for simulation %, whose vectors are of model %',
                        pg_catalog.array_to_string(v_models, ', '), p_simulation_id, pg_catalog.quote_literal(v_stored)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('embed with %s (memory.model_of()), name another model first with memory.set_model() while the simulation holds no vectors, or re-embed it (swarm-memory reembed)', v_stored);
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._check_items_model(uuid, uuid, jsonb) IS 'Internal: refuse (22023) a batch whose vectors are of another model than the simulation''s';
GRANT EXECUTE ON FUNCTION memory._check_items_model(uuid, uuid, jsonb) TO memory_writer;
