-- V0023: memory.search_episodes gains p_collapse (near-identical hits returned as one row
-- with the number of copies and of agents behind it, issue 13), p_model (the model of the
-- query vector: another than the simulation's is 22023, as in the other searches of V0022)
-- and two result columns, copies and agents. The old signature goes here so that a call without p_collapse names
-- one function; sql/functions/search_episodes.sql creates the new one (every argument
-- before p_collapse keeps its name, place and default, so old calls work unchanged).
DROP FUNCTION IF EXISTS memory.search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz);
