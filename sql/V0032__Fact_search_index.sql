-- V0032 (issue 12): the facts arm index-backed. memory.search_facts was an exact scan of a
-- simulation's facts: a MiroFish graph of 10,000 entities holds about 50,000 facts, each
-- with its vector, and the scan took 44 ms (about 60 ms of CPU over three processes) where
-- memory.recall has 20 ms for all its arms. A simulation with enough embedded facts now gets
-- a partial HNSW index of its own over them, built after its load as its episodes' index is
-- (memory.ann_plan_facts, memory.ann_index_facts, swarm-memory index), and named and
-- predicated by the simulation's opaque number only: memory.facts_ann_<sim_no> WHERE sim_no
-- = <sim_no>. For that, an edge carries its simulation's number, as an episode does since
-- V0009: written by the merge once a statement (memory._merge_sql fills the committed
-- columns the staged table lacks from memory.simulations) and held to the simulation's by a
-- foreign key (V0013's form). That key implies the edge's (tenant_id, simulation_id) key of
-- V0001, which goes (V0025 did the same for episodes: one check a row less).
ALTER TABLE memory.edges ADD COLUMN sim_no bigint;
COMMENT ON COLUMN memory.edges.sim_no IS
    'The simulation''s opaque number (memory.simulations.sim_no), written by the merge, held by edges_sim_no_fkey';

-- The rows written so far (as V0009 did for episodes: row-level security is lifted for this
-- transaction, which holds memory.edges in ACCESS EXCLUSIVE mode since the ALTER above, so
-- that a deploy by a role with the owner's privileges updates every tenant's rows). The
-- number is no change of a fact: the triggers that record a fact's versions and index its
-- words (V0015, V0020) are off for this statement.
ALTER TABLE memory.edges NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.simulations NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.edges DISABLE TRIGGER USER;
UPDATE memory.edges AS e SET sim_no = s.sim_no
  FROM memory.simulations AS s
 WHERE s.tenant_id = e.tenant_id AND s.simulation_id = e.simulation_id;
ALTER TABLE memory.edges ENABLE TRIGGER USER;
ALTER TABLE memory.edges FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.simulations FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.edges ALTER COLUMN sim_no SET NOT NULL;

ALTER TABLE memory.edges
    ADD CONSTRAINT edges_sim_no_fkey FOREIGN KEY (tenant_id, simulation_id, sim_no)
        REFERENCES memory.simulations (tenant_id, simulation_id, sim_no) ON DELETE CASCADE;
ALTER TABLE memory.edges DROP CONSTRAINT IF EXISTS edges_simulation_fkey;

-- The counts memory.ann_plan decides from take the kind of row indexed (episodes or facts),
-- and name their count rows: their argument lists change, so the old signatures go here and
-- sql/functions creates the new ones (their callers are plpgsql or SQL resolved at call time).
DROP FUNCTION IF EXISTS memory._ann_wanted(integer);
DROP FUNCTION IF EXISTS memory._ann_counts(uuid, integer);
