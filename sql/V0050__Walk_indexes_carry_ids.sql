-- V0050: the walk's covering indexes carry the upstream ids as well as the keys: the edge's id
-- and the id of the node at its other end. memory.neighbor_ids answers from them alone (an
-- index-only scan a level, no row of edges or nodes fetched), and memory.neighbors knows each
-- node's id during the walk, so that p_limit cuts the last level before its rows are built.
-- Same names as the indexes they replace (V0015): every reader that names them still does.
DROP INDEX memory.edges_out_idx;
DROP INDEX memory.edges_in_idx;
CREATE INDEX edges_out_idx ON memory.edges (tenant_id, simulation_id, source_key)
    INCLUDE (target_key, edge_key, type, valid_at, invalid_at, expired_at, target_id, edge_id);
CREATE INDEX edges_in_idx ON memory.edges (tenant_id, simulation_id, target_key)
    INCLUDE (source_key, edge_key, type, valid_at, invalid_at, expired_at, source_id, edge_id);
