-- V0015: the graph keeps time. Graphiti, which builds MiroFish's graph, gives every edge two
-- clocks: valid_at / invalid_at, when the fact held in the world, and created_at /
-- expired_at, when the graph learned it and when it learned that it no longer held. The
-- first pair were columns already; the second lived in attributes and becomes columns:
-- learned_at (MiroFish's created_at: the row's own created_at says when this memory stored
-- it) and expired_at. Reads take a world time (as of) and a record time (known at).
--
-- The memory's own record time: a row's version starts at its updated_at (an unchanged
-- replay does not move it); when a merge changes a node, edge or episode or an import
-- removes it, the version it ends goes to memory.row_history with the interval it was the
-- memory's word (recorded_from, recorded_to) and the import attempt that ended it.

-- 1. The second clock as columns, on the committed and the staged table (the write path
--    follows the catalog: memory._kind_columns). memory._merge sets every committed column.
ALTER TABLE memory.edges ADD COLUMN learned_at timestamptz, ADD COLUMN expired_at timestamptz;
ALTER TABLE memory.staged_edges ADD COLUMN learned_at timestamptz, ADD COLUMN expired_at timestamptz;
GRANT UPDATE (learned_at, expired_at) ON memory.edges TO memory_writer;
COMMENT ON COLUMN memory.edges.valid_at IS 'When the fact began to hold in the world (NULL: unknown, taken as always)';
COMMENT ON COLUMN memory.edges.invalid_at IS 'When the fact stopped holding in the world (NULL: it still holds)';
COMMENT ON COLUMN memory.edges.learned_at IS 'When the upstream graph learned the fact (MiroFish''s created_at)';
COMMENT ON COLUMN memory.edges.expired_at IS 'When the upstream graph learned that the fact no longer holds (MiroFish''s expired_at)';

-- Rows stored before this migration carry the two in attributes. A deploy that cannot
-- bypass row-level security (a managed server's DBA) reads and writes them through a policy
-- of its own, for this transaction only.
CREATE POLICY v0015_backfill ON memory.edges AS PERMISSIVE FOR ALL TO CURRENT_USER USING (true) WITH CHECK (true);
UPDATE memory.edges AS e
   SET learned_at = CASE WHEN pg_catalog.pg_input_is_valid(e.attributes ->> 'created_at', 'timestamptz')
                         THEN (e.attributes ->> 'created_at')::timestamptz END,
       expired_at = CASE WHEN pg_catalog.pg_input_is_valid(e.attributes ->> 'expired_at', 'timestamptz')
                         THEN (e.attributes ->> 'expired_at')::timestamptz END
 WHERE e.attributes ?| ARRAY['created_at', 'expired_at'];

-- A fact cannot end before it begins. Checked for new rows at once; for stored rows when
-- none breaks it (an import refuses such an edge with its id: memory._kind_problems).
ALTER TABLE memory.edges ADD CONSTRAINT edges_validity_check
    CHECK (invalid_at >= valid_at) NOT VALID;
DO $check$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM memory.edges AS e WHERE e.invalid_at < e.valid_at) THEN
        ALTER TABLE memory.edges VALIDATE CONSTRAINT edges_validity_check;
    END IF;
END
$check$;
DROP POLICY v0015_backfill ON memory.edges;
-- The staged rows of an import hold to it too (the importer refuses such an edge with its id
-- while it parses, before anything is embedded).
ALTER TABLE memory.staged_edges ADD CONSTRAINT staged_edges_validity_check CHECK (invalid_at >= valid_at);

-- 2. The walk filters edges by their validity at the world time asked for and still reads
--    them from the index alone: the covering indexes of V0004 carry the three times.
DROP INDEX memory.edges_out_idx;
DROP INDEX memory.edges_in_idx;
CREATE INDEX edges_out_idx ON memory.edges (tenant_id, simulation_id, source_key)
    INCLUDE (target_key, edge_key, type, valid_at, invalid_at, expired_at);
CREATE INDEX edges_in_idx ON memory.edges (tenant_id, simulation_id, target_key)
    INCLUDE (source_key, edge_key, type, valid_at, invalid_at, expired_at);

-- 3. The versions a change ended. Append-only, written only by the trigger function
--    memory._record_history (SECURITY DEFINER, owned by memory_owner, whose policies admit
--    only the call's tenant): tenant roles read it and write nothing, so no tenant role can
--    forge what the memory said. A simulation's history goes with it.
CREATE TABLE memory.row_history (
    tenant_id      uuid        NOT NULL,
    simulation_id  uuid        NOT NULL,
    history_id     bigint      NOT NULL GENERATED ALWAYS AS IDENTITY,
    kind           text        NOT NULL,
    row_id         text        NOT NULL,
    recorded_from  timestamptz NOT NULL,
    recorded_to    timestamptz NOT NULL,
    change         text        NOT NULL,
    attempt_id     uuid,
    data           jsonb       NOT NULL,
    CONSTRAINT row_history_pkey PRIMARY KEY (tenant_id, history_id),
    CONSTRAINT row_history_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT row_history_kind_check CHECK (kind IN ('nodes', 'edges', 'episodes')),
    CONSTRAINT row_history_change_check CHECK (change IN ('updated', 'removed')),
    CONSTRAINT row_history_interval_check CHECK (recorded_to >= recorded_from)
);
COMMENT ON TABLE memory.row_history IS
    'Versions of nodes, edges and episodes that a change ended, with when they were the memory''s word (append-only)';
-- history(): a row's versions; the known-at reads: a kind's versions current at a moment.
CREATE INDEX row_history_row_idx ON memory.row_history (tenant_id, simulation_id, kind, row_id, recorded_from);
CREATE INDEX row_history_known_idx ON memory.row_history (tenant_id, simulation_id, kind, recorded_to);

ALTER TABLE memory.row_history ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.row_history FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.row_history FROM PUBLIC;
GRANT SELECT ON memory.row_history TO memory_reader;

-- 4. The walk's result gains the edge's validity and state, and its arguments the two
--    clocks (a function's result type cannot change in place): re-created by its file.
DROP FUNCTION IF EXISTS memory.neighbors(uuid, uuid, text, integer, text[], text);
