-- One relationship with every field MiroFish sends: its type, ends, fact, fact_type, when it
-- held in the world (valid_at, invalid_at), when the graph learned it and learned it no
-- longer held (created_at, expired_at, as MiroFish's export gives them) and the episodes it
-- was extracted from. An unknown edge is P0002, the same for another tenant's.
CREATE OR REPLACE FUNCTION memory.get_edge(p_tenant_id uuid, p_simulation_id uuid, p_edge_id text)
RETURNS TABLE (edge_id text, type text, source_id text, target_id text, fact text,
               fact_type text, valid_at timestamptz, invalid_at timestamptz,
               created_at timestamptz, expired_at timestamptz, episodes text[],
               attributes jsonb, source text)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
-- STABLE: reads only; _require_simulation sets a transaction-local setting (the call's tenant).
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    IF p_edge_id IS NULL THEN
        RAISE EXCEPTION 'p_edge_id must not be NULL'
            USING ERRCODE = 'null_value_not_allowed', HINT = 'pass the id of an edge of the simulation';
    END IF;
    RETURN QUERY SELECT e.edge_id, e.type::text, e.source_id, e.target_id, e.fact,
           e.attributes ->> 'fact_type', e.valid_at, e.invalid_at,
           CASE WHEN pg_catalog.pg_input_is_valid(e.attributes ->> 'created_at', 'timestamptz')
                THEN (e.attributes ->> 'created_at')::timestamptz END,
           CASE WHEN pg_catalog.pg_input_is_valid(e.attributes ->> 'expired_at', 'timestamptz')
                THEN (e.attributes ->> 'expired_at')::timestamptz END,
           CASE WHEN pg_catalog.jsonb_typeof(e.attributes -> 'episodes') = 'array'
                THEN ARRAY(SELECT pg_catalog.jsonb_array_elements_text(e.attributes -> 'episodes')) END,
           e.attributes, e.source
      FROM memory.edges AS e
     WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
       AND e.edge_key = pg_catalog.md5(p_edge_id)::uuid;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown edge % in simulation %', memory._quote(p_edge_id), p_simulation_id
            USING ERRCODE = 'no_data_found', HINT = 'neighbors() lists the edges around a node';
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory.get_edge(uuid, uuid, text) IS 'One edge with every field MiroFish sends (fact_type, validity, created/expired, source episodes)';
REVOKE ALL ON FUNCTION memory.get_edge(uuid, uuid, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.get_edge(uuid, uuid, text) TO memory_reader;
