-- V0049: the reads a report goes through take a round, and its searches a snapshot.
--
-- memory.search_facts takes p_round and p_snapshot, memory.search_episodes p_snapshot, as
-- memory.facts took them in V0047 (added parameters: the old signatures go, the new ones keep
-- every old call's meaning, their new parameters defaulting to NULL). Left in place, an old
-- signature would make every call of the old arity ambiguous between the two.
DROP FUNCTION IF EXISTS memory.search_facts(uuid, uuid, public.vector, integer, text, timestamptz, text);
DROP FUNCTION IF EXISTS memory.search_episodes(uuid, uuid, public.vector, integer, integer, integer, integer, timestamptz, timestamptz, boolean, text);
-- the report agent's other reads take a round (p_round), as recall's option round
DROP FUNCTION IF EXISTS memory.panorama(uuid, uuid, text, public.vector, integer, text);
DROP FUNCTION IF EXISTS memory.entity_summary(uuid, uuid, text, integer);
DROP FUNCTION IF EXISTS memory.timeline(uuid, uuid, text, integer);
