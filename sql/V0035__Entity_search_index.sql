-- V0035 (issue 12): the entities arm index-backed. memory.search_nodes compared every entity
-- of a simulation with the query: a MiroFish graph of 10,000 entities, each with its two
-- vectors ("{type}: {name}" and its summary), took 9 ms a search (13 ms inside
-- memory.recall's top 50, a third of its time at 200,000 episodes). A simulation with enough
-- embedded entities now gets two partial HNSW indexes of its own, over the name vectors and
-- over the summary vectors, built after its load as its episodes' and facts' are
-- (memory.ann_plan_entities, memory.ann_index_entities, swarm-memory index), named and
-- predicated by the simulation's opaque number only: memory.entities_ann_<sim_no> and
-- memory.entities_ann_<sim_no>_summary, WHERE sim_no = <sim_no>. For that, an entity carries
-- its simulation's number, as an episode (V0009) and a fact (V0032) do: written by the merge
-- (memory._merge_sql fills the committed columns the staged table lacks from
-- memory.simulations) and held to the simulation's by a foreign key, which implies the
-- entity's (tenant_id, simulation_id) key of V0001; that key goes.
ALTER TABLE memory.nodes ADD COLUMN sim_no bigint;
COMMENT ON COLUMN memory.nodes.sim_no IS
    'The simulation''s opaque number (memory.simulations.sim_no), written by the merge, held by nodes_sim_no_fkey';

-- The rows written so far (as V0032 did for edges): row-level security lifted for this
-- transaction, which holds memory.nodes in ACCESS EXCLUSIVE mode since the ALTER above; the
-- number is no change of an entity, so the triggers that record its versions and index its
-- words are off for this statement.
ALTER TABLE memory.nodes NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.simulations NO FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.nodes DISABLE TRIGGER USER;
UPDATE memory.nodes AS n SET sim_no = s.sim_no
  FROM memory.simulations AS s
 WHERE s.tenant_id = n.tenant_id AND s.simulation_id = n.simulation_id;
ALTER TABLE memory.nodes ENABLE TRIGGER USER;
ALTER TABLE memory.nodes FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.simulations FORCE ROW LEVEL SECURITY;
ALTER TABLE memory.nodes ALTER COLUMN sim_no SET NOT NULL;

ALTER TABLE memory.nodes
    ADD CONSTRAINT nodes_sim_no_fkey FOREIGN KEY (tenant_id, simulation_id, sim_no)
        REFERENCES memory.simulations (tenant_id, simulation_id, sim_no) ON DELETE CASCADE;
ALTER TABLE memory.nodes DROP CONSTRAINT IF EXISTS nodes_simulation_fkey;

-- memory.search_nodes changes language (SQL to plpgsql, to choose between the indexes and
-- the exact scan): CREATE OR REPLACE keeps its signature, so nothing is dropped here.
