-- A simulation as Zep's API sends a graph (Graph): the one home of its wire shape. graph_id
-- is the MiroFish graph_id the import recorded, else the name, else the UUID (each of them
-- memory._zep_simulation resolves); uuid is the simulation's UUID; name the one graph.create gave.
CREATE OR REPLACE FUNCTION memory._zep_graph_json(p_simulation_id uuid, p_name text, p_metadata jsonb,
                                                  p_created_at timestamptz)
RETURNS jsonb
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT pg_catalog.jsonb_build_object(
        'uuid', p_simulation_id,
        'graph_id', COALESCE(p_metadata ->> 'graph_id', p_name, p_simulation_id::text),
        'name', COALESCE(p_metadata ->> 'zep_name', p_name, p_metadata ->> 'graph_id'),
        'description', p_metadata ->> 'description',
        'created_at', memory._zep_time(p_created_at));
$fn$;

COMMENT ON FUNCTION memory._zep_graph_json(uuid, text, jsonb, timestamptz) IS 'Internal: a simulation in the wire shape of Zep''s Graph';
GRANT EXECUTE ON FUNCTION memory._zep_graph_json(uuid, text, jsonb, timestamptz) TO memory_reader;
