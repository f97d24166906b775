-- An edge as memory.get_edge and memory.graph_edges return it (memory.edge_detail), so the
-- two never differ: the stored columns and the fields MiroFish sends that the edge keeps in
-- its attributes: fact_type, when the graph learned it and learned it no longer held
-- (created_at, expired_at: the columns learned_at and expired_at of V0015, else the
-- attributes' values when valid timestamps) and the episodes it was extracted from (NULL
-- unless a list).
-- Callers pass the row as ROW(e.*)::memory.edges, never the bare whole-row reference e: on a
-- Citus worker a statement over memory.edges runs on a shard, whose whole row is of the
-- shard's own type (memory.edges_<shard>), for which this function does not exist; the row
-- built from its columns is of the table's type everywhere.
CREATE OR REPLACE FUNCTION memory._edge_detail(p_edge memory.edges) RETURNS memory.edge_detail
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
SELECT p_edge.edge_id, p_edge.type::text, p_edge.source_id, p_edge.target_id, p_edge.fact,
       p_edge.attributes ->> 'fact_type', p_edge.valid_at, p_edge.invalid_at,
       COALESCE(p_edge.learned_at,
                CASE WHEN pg_catalog.pg_input_is_valid(p_edge.attributes ->> 'created_at', 'timestamptz')
                     THEN (p_edge.attributes ->> 'created_at')::timestamptz END),
       COALESCE(p_edge.expired_at,
                CASE WHEN pg_catalog.pg_input_is_valid(p_edge.attributes ->> 'expired_at', 'timestamptz')
                     THEN (p_edge.attributes ->> 'expired_at')::timestamptz END),
       CASE WHEN pg_catalog.jsonb_typeof(p_edge.attributes -> 'episodes') = 'array'
            THEN ARRAY(SELECT pg_catalog.jsonb_array_elements_text(p_edge.attributes -> 'episodes')) END,
       p_edge.attributes, p_edge.source
$fn$;

COMMENT ON FUNCTION memory._edge_detail(memory.edges) IS 'Internal: an edge with every field MiroFish sends, as get_edge and graph_edges return it';
GRANT EXECUTE ON FUNCTION memory._edge_detail(memory.edges) TO memory_reader;
