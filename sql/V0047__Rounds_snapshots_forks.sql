-- V0047: a simulation read at any round, frozen snapshots, and forks.
--
-- A round is the simulation's own clock (MiroFish's rounds; episodes carry theirs). A read at
-- round R reads the world clock at the moment R ended: the latest occurred_at of the
-- episodes of rounds up to R (memory._round_moment). The record clock is left alone: an
-- import writes every round in one commit, so the memory's record time says nothing about
-- rounds. A snapshot is the other clock pinned: a name for a record time (and optionally a
-- round), read through memory._known over memory.row_history, so it holds no copy of any
-- text and later imports cannot change what it answers. A fork is a new simulation whose
-- rows start as the source's at a round (memory.fork_simulation).

-- A named record time of a simulation. A dropped snapshot keeps its row (dropped_at), as a
-- revoked key does, so writers need no DELETE; its name is free again once dropped.
CREATE TABLE memory.snapshots (
    tenant_id      uuid        NOT NULL,
    simulation_id  uuid        NOT NULL,
    snapshot_id    uuid        NOT NULL DEFAULT pg_catalog.gen_random_uuid(),
    name           text        NOT NULL,
    known_at       timestamptz NOT NULL,
    round          integer,
    note           text,
    created_at     timestamptz NOT NULL DEFAULT pg_catalog.now(),
    created_by     name        NOT NULL DEFAULT SESSION_USER,
    dropped_at     timestamptz,
    CONSTRAINT snapshots_pkey PRIMARY KEY (tenant_id, simulation_id, snapshot_id),
    CONSTRAINT snapshots_simulation_fkey FOREIGN KEY (tenant_id, simulation_id)
        REFERENCES memory.simulations (tenant_id, simulation_id) ON DELETE CASCADE,
    CONSTRAINT snapshots_name_check CHECK (name <> '' AND pg_catalog.length(name) <= 200),
    CONSTRAINT snapshots_round_check CHECK (round IS NULL OR round >= 0)
);
COMMENT ON TABLE memory.snapshots IS
    'Named, read-only snapshots of simulations: a record time (and a round) that reads pin';
-- one live snapshot of a name in a simulation
CREATE UNIQUE INDEX snapshots_name_key ON memory.snapshots (tenant_id, simulation_id, name)
    WHERE dropped_at IS NULL;

ALTER TABLE memory.snapshots ENABLE ROW LEVEL SECURITY;
ALTER TABLE memory.snapshots FORCE ROW LEVEL SECURITY;
REVOKE ALL ON memory.snapshots FROM PUBLIC;
GRANT SELECT ON memory.snapshots TO memory_reader;
GRANT INSERT ON memory.snapshots TO memory_writer;
GRANT UPDATE (dropped_at) ON memory.snapshots TO memory_writer;

-- the reads that take a round and a snapshot (added parameters: the old signatures go, the
-- new ones keep every old call's meaning, their new parameters defaulting to NULL)
DROP FUNCTION IF EXISTS memory.neighbors(uuid, uuid, text, integer, text[], text, timestamptz, timestamptz, boolean, integer);
DROP FUNCTION IF EXISTS memory.facts(uuid, uuid, text, text, timestamptz, integer);
