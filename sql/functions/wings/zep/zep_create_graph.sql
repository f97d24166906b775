-- Zep's graph.create: a graph of the caller's tenant named p_graph_id, made once. The graph
-- is a simulation named p_graph_id, its UUID drawn from the tenant and the graph_id (so two
-- racing creates make one graph, and a retried create finds it); a graph_id a simulation of
-- the tenant already answers to (memory._zep_simulation: its name, MiroFish graph_id or UUID)
-- is that graph, returned as it is: creating it again changes nothing. p_name and
-- p_description are kept in its metadata; p_model names the model its vectors are of
-- (memory.set_model; NULL: the tenant's, else the default). Returns the graph as
-- memory.zep_graph does.
CREATE OR REPLACE FUNCTION memory.zep_create_graph(p_tenant_id uuid, p_graph_id text, p_name text DEFAULT NULL,
                                                   p_description text DEFAULT NULL, p_model text DEFAULT NULL)
RETURNS TABLE (simulation_id uuid, model text, graph jsonb, created boolean)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_sim uuid;
    v_new boolean := false;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    PERFORM memory._not_null(p_graph_id, 'p_graph_id', 'name the graph (graph.create''s graph_id)');
    IF p_graph_id !~ '^[A-Za-z0-9][A-Za-z0-9_.:-]*$' OR pg_catalog.char_length(p_graph_id) > memory._label_max() THEN
        RAISE EXCEPTION 'graph_id % is not a graph id', memory._quote(p_graph_id)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('letters, digits and _ . : - , at most %s characters, starting with a letter or digit',
                                           memory._label_max());
    END IF;
    PERFORM memory._check_limit('string_bytes', 'p_name', pg_catalog.octet_length(p_name));
    PERFORM memory._check_limit('string_bytes', 'p_description', pg_catalog.octet_length(p_description));
    -- one graph_id, one graph: racing creates of the same id wait for each other
    PERFORM pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended(p_tenant_id::text || '/' || p_graph_id, 44));
    BEGIN
        v_sim := memory._zep_simulation(p_tenant_id, p_graph_id);
    EXCEPTION WHEN no_data_found THEN
        v_sim := pg_catalog.md5('zep-graph/' || p_tenant_id::text || '/' || p_graph_id)::uuid;
        PERFORM memory.upsert_simulation(p_tenant_id, v_sim, p_graph_id,
            pg_catalog.jsonb_strip_nulls(pg_catalog.jsonb_build_object(
                'graph_id', p_graph_id, 'zep_name', p_name, 'description', p_description, 'made_by', 'zep')));
        v_new := true;
    END;
    IF p_model IS NOT NULL THEN
        PERFORM memory.set_model(p_tenant_id, v_sim, p_model);
    END IF;
    RETURN QUERY SELECT g.simulation_id, g.model, g.graph, v_new FROM memory.zep_graph(p_tenant_id, v_sim::text) AS g;
END
$fn$;

COMMENT ON FUNCTION memory.zep_create_graph(uuid, text, text, text, text) IS 'Zep graph.create: the graph of a graph_id, made once (creating it again returns it)';
GRANT EXECUTE ON FUNCTION memory.zep_create_graph(uuid, text, text, text, text) TO memory_writer;
