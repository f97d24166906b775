-- The simulation a Zep graph_id names among the caller's tenant's committed simulations:
-- its name first (the operator's choice, `swarm-memory import --simulation NAME`), else the
-- MiroFish graph_id the import recorded in its metadata, else its UUID written out. A
-- graph_id no committed simulation of the tenant answers to is P0002, the same whether it
-- exists under another tenant or not at all (the service answers 404 alike); one that names
-- several is 22023 (address one by its name).
CREATE OR REPLACE FUNCTION memory._zep_simulation(p_tenant_id uuid, p_graph_id text) RETURNS uuid
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_found uuid[];
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_graph_id, 'p_graph_id', 'pass the graph_id of a graph (graph.list_all lists them)');
    SELECT pg_catalog.array_agg(s.simulation_id ORDER BY s.simulation_id) INTO v_found
      FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.published AND s.name = p_graph_id;
    IF v_found IS NULL THEN
        SELECT pg_catalog.array_agg(s.simulation_id ORDER BY s.simulation_id) INTO v_found
          FROM memory.simulations AS s
         WHERE s.tenant_id = p_tenant_id AND s.published AND s.metadata ->> 'graph_id' = p_graph_id;
    END IF;
    IF v_found IS NULL AND pg_catalog.pg_input_is_valid(p_graph_id, 'uuid') THEN
        SELECT pg_catalog.array_agg(s.simulation_id) INTO v_found
          FROM memory.simulations AS s
         WHERE s.tenant_id = p_tenant_id AND s.published AND s.simulation_id = p_graph_id::uuid;
    END IF;
    IF v_found IS NULL THEN
        RAISE EXCEPTION 'unknown graph %', memory._quote(p_graph_id)
            USING ERRCODE = 'no_data_found',
                  HINT = 'graph.list_all lists the graphs of the key''s tenant';
    END IF;
    IF pg_catalog.cardinality(v_found) > 1 THEN
        RAISE EXCEPTION 'graph_id % names % simulations', memory._quote(p_graph_id), pg_catalog.cardinality(v_found)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'address one by its simulation name or UUID (graph.list_all lists them)';
    END IF;
    RETURN v_found[1];
END
$fn$;

COMMENT ON FUNCTION memory._zep_simulation(uuid, text) IS 'Internal: the committed simulation a Zep graph_id names (name, MiroFish graph_id, UUID; P0002 when none)';
GRANT EXECUTE ON FUNCTION memory._zep_simulation(uuid, text) TO memory_reader;
