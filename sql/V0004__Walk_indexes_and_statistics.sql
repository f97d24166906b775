-- V0004: the neighbour walk reads edges from the index alone, and the planner knows how
-- large a simulation is.

-- For a node of the frontier, the walk needs the node at the other end of each edge, the
-- edge's key and, for the type filter, its type: all of it is in these covering indexes,
-- so the walk never touches the heap (index-only scans). They take over the prefixes of
-- the plain indexes they replace (the foreign-key cascades from nodes use them too).
CREATE INDEX edges_out_idx ON memory.edges (tenant_id, simulation_id, source_key)
    INCLUDE (target_key, edge_key, type);
CREATE INDEX edges_in_idx ON memory.edges (tenant_id, simulation_id, target_key)
    INCLUDE (source_key, edge_key, type);
DROP INDEX memory.edges_source_idx;
DROP INDEX memory.edges_target_idx;

-- Types are short labels (the API refuses more than 200 characters with 22023); the tables
-- say so too, so that a row written without the API cannot outgrow the indexes that hold
-- the type.
ALTER TABLE memory.nodes
    ADD CONSTRAINT nodes_type_length_check CHECK (pg_catalog.char_length(type) <= 200);
ALTER TABLE memory.edges
    ADD CONSTRAINT edges_type_length_check CHECK (pg_catalog.char_length(type) <= 200);

-- A simulation belongs to one tenant, so (tenant_id, simulation_id) selects no fewer rows
-- than simulation_id alone. Without these statistics the planner multiplies the two
-- selectivities and expects a 10,000-node simulation to hold ~600 rows.
CREATE STATISTICS memory.nodes_simulation_stats (dependencies)
    ON tenant_id, simulation_id FROM memory.nodes;
CREATE STATISTICS memory.edges_simulation_stats (dependencies)
    ON tenant_id, simulation_id FROM memory.edges;
CREATE STATISTICS memory.episodes_simulation_stats (dependencies)
    ON tenant_id, simulation_id FROM memory.episodes;
CREATE STATISTICS memory.profiles_simulation_stats (dependencies)
    ON tenant_id, simulation_id FROM memory.profiles;
