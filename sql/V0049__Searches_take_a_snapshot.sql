-- V0049: the searches a report reads through take a round and a snapshot.
--
-- memory.search_facts takes p_round and p_snapshot, memory.search_episodes p_snapshot, as
-- memory.facts took them in V0047 (added parameters: the old signatures go, the new ones keep
-- every old call's meaning, their new parameters defaulting to NULL). Left in place, an old
-- signature would make every call of the old arity ambiguous between the two.
DROP FUNCTION IF EXISTS memory.search_facts(uuid, uuid, public.vector, integer, text, timestamptz, text);
DROP FUNCTION IF EXISTS memory.search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, boolean, text);
