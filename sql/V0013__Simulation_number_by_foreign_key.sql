-- V0013: an episode's simulation number (V0009) is written by the merge once a statement and
-- held to its simulation's by a foreign key, instead of looked up by a row trigger. The
-- trigger ran a query under row-level security for every row an import wrote (the bulk
-- load of the benchmark took a third longer with it); a foreign-key check is a cached probe
-- of the simulations' key that row-level security does not slow.
ALTER TABLE memory.simulations
    ADD CONSTRAINT simulations_sim_no_ref_key UNIQUE (tenant_id, simulation_id, sim_no);
DROP TRIGGER IF EXISTS episodes_take_the_simulation_number ON memory.episodes;
DROP FUNCTION IF EXISTS memory._episode_sim_no();
ALTER TABLE memory.episodes
    ADD CONSTRAINT episodes_sim_no_fkey FOREIGN KEY (tenant_id, simulation_id, sim_no)
        REFERENCES memory.simulations (tenant_id, simulation_id, sim_no) ON DELETE CASCADE;
