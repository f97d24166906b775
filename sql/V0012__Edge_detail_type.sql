-- V0012: the row of an edge as memory.get_edge and memory.graph_edges return it, defined
-- once: memory._edge_detail fills it from a stored edge, and both functions return SETOF it,
-- so the two can never differ. The columns, their names, types and order are those the two
-- returned before as RETURNS TABLE. A function's result type cannot be changed by CREATE OR
-- REPLACE, so the two are dropped here; their files, re-applied after the migrations,
-- create them again with the same signatures, comments and grants.
CREATE TYPE memory.edge_detail AS (
    edge_id     text,
    type        text,
    source_id   text,
    target_id   text,
    fact        text,
    fact_type   text,
    valid_at    timestamptz,
    invalid_at  timestamptz,
    created_at  timestamptz,
    expired_at  timestamptz,
    episodes    text[],
    attributes  jsonb,
    source      text
);
COMMENT ON TYPE memory.edge_detail IS 'One result row of memory.get_edge and memory.graph_edges: an edge with every field MiroFish sends';

DROP FUNCTION IF EXISTS memory.get_edge(uuid, uuid, text);
DROP FUNCTION IF EXISTS memory.graph_edges(uuid, uuid, integer, text);

-- commit_import prunes before it merges, so it no longer asks whether a kind was held.
DROP FUNCTION IF EXISTS memory._kind_held(text, uuid, uuid);
