-- Name the model of a simulation's vectors: what its imports embed with and its searches
-- compare against (memory._simulation_model). Refused with 55000 while the simulation holds
-- vectors of another model (they would mix: re-embed it instead, memory.reembed_texts and
-- memory.switch_model); naming its model again changes nothing. The importer calls it in
-- the promote's transaction, under the simulation's row lock as memory.switch_model takes
-- it, so an import embedded before a switch cannot land after it. Returns the model.
-- p_simulation_id need not be published yet (an import's first promote names it).
CREATE OR REPLACE FUNCTION memory.set_model(p_tenant_id uuid, p_simulation_id uuid, p_model text)
RETURNS text
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_current text;
    v_other   text;
BEGIN
    PERFORM memory._enter_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._model(p_model);
    SELECT s.embedding_model INTO v_current FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown simulation % for tenant %', p_simulation_id, p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'create it with memory.upsert_simulation()';
    END IF;
    IF v_current = p_model THEN
        RETURN p_model;
    END IF;
    SELECT m.model INTO v_other
      FROM (SELECT n.embedding_model AS model FROM memory.nodes AS n
             WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
               AND n.embedding_model IS DISTINCT FROM p_model AND n.embedding IS NOT NULL
            UNION ALL
            SELECT e.embedding_model FROM memory.edges AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND e.embedding_model IS DISTINCT FROM p_model AND e.embedding IS NOT NULL
            UNION ALL
            SELECT e.embedding_model FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND e.embedding_model IS DISTINCT FROM p_model AND e.embedding IS NOT NULL
            UNION ALL
            SELECT c.embedding_model FROM memory.report_chunks AS c
             WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
               AND c.embedding_model IS DISTINCT FROM p_model AND c.embedding IS NOT NULL) AS m
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'simulation % holds vectors of model %, not %', p_simulation_id,
                        pg_catalog.quote_literal(v_other), pg_catalog.quote_literal(p_model)
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = pg_catalog.format('re-embed it online: swarm-memory reembed --model %s (memory.reembed_texts, memory.switch_model)', p_model);
    END IF;
    UPDATE memory.simulations AS s SET embedding_model = p_model
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    RETURN p_model;
END
$fn$;

COMMENT ON FUNCTION memory.set_model(uuid, uuid, text) IS 'Name the embedding model of a simulation (55000 while it holds vectors of another model: re-embed it)';
GRANT EXECUTE ON FUNCTION memory.set_model(uuid, uuid, text) TO memory_writer;
