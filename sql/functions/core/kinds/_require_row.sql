-- Enter a simulation (memory._require_simulation's checks), then refuse a NULL id (22004,
-- naming p_<item>_id) and an id the simulation does not hold in a record kind's committed
-- table (P0002, naming it, with a hint of where the kind's ids are listed). The one home of
-- "unknown node / edge / episode / report / prediction" for the calls that take one.
CREATE OR REPLACE FUNCTION memory._require_row(p_kind text, p_tenant_id uuid, p_simulation_id uuid, p_id text)
RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind  memory.record_kind := memory._kind(p_kind);
    v_found boolean;
    -- a kind's rows are listed by the function named after it (episodes, and the wings'
    -- kinds alike); nodes and edges by the core's reads
    v_hint  text := CASE v_kind.kind
                        WHEN 'nodes' THEN 'list the simulation''s nodes with memory.nodes_by_type() (swarm-memory nodes)'
                        WHEN 'edges' THEN 'memory.neighbors() walks the edges around a node (swarm-memory neighbors)'
                        WHEN 'profiles' THEN 'ids are the upstream ids'
                        ELSE pg_catalog.format('list the simulation''s %1$s with memory.%1$s() (swarm-memory %1$s)', v_kind.kind) END;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._not_null(p_id, 'p_' || v_kind.item || '_id', v_hint);
    EXECUTE pg_catalog.format('SELECT EXISTS (SELECT 1 FROM %s AS r WHERE r.tenant_id = $1 AND r.simulation_id = $2'
                              ' AND r.%I = pg_catalog.md5($3)::uuid)', v_kind.live, v_kind.item || '_key')
       INTO v_found USING p_tenant_id, p_simulation_id, p_id;
    IF NOT v_found THEN
        RAISE EXCEPTION 'unknown % % in simulation %', v_kind.item, memory._quote(p_id), p_simulation_id
            USING ERRCODE = 'no_data_found', HINT = v_hint;
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._require_row(text, uuid, uuid, text) IS 'Internal: enter a simulation and check that it holds a node, edge, episode or report (P0002)';
GRANT EXECUTE ON FUNCTION memory._require_row(text, uuid, uuid, text) TO memory_reader;
