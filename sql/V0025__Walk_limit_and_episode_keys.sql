-- V0025 (issue 13): the walk gains a bound on rows (item 3), and an episode one foreign-key
-- check less per row (item 4).
--
-- 1. memory.neighbors takes a tenth argument, p_limit (defaulted, so every old call keeps
--    working). A function's argument list cannot change in place, and a second overload
--    would make the old calls ambiguous, so the nine-argument signature goes here and
--    sql/functions/neighbors.sql creates the new one. Its callers (paths, recall,
--    entity_summary, the Python client) are plpgsql or SQL resolved at call time.
DROP FUNCTION IF EXISTS memory.neighbors(uuid, uuid, text, integer, text[], text, timestamptz, timestamptz, boolean);

-- 2. From files to searchable: an episode's simulation is held by two foreign keys,
--    (tenant_id, simulation_id) from V0001 and (tenant_id, simulation_id, sim_no) from V0013,
--    which references a unique key of memory.simulations that holds the first two columns:
--    the second implies the first, and both cascade a simulation's delete. Each is a check
--    per row a merge writes; the redundant one cost a 50,000-episode merge 0.4-0.75 s (of
--    1.9-3.0 s for the INSERT with its indexes, measured on a copy of the table).
ALTER TABLE memory.episodes DROP CONSTRAINT IF EXISTS episodes_simulation_fkey;
