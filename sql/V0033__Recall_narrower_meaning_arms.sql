-- memory.recall's facts arm searches more narrowly than memory.search_facts does for the
-- same number of hits: memory.search_facts' ranking moves into memory._search_facts, which
-- takes the breadth, and memory._search_facts_ann takes it as one more argument. The old
-- signature goes; the repeatable functions create the new one.
DROP FUNCTION IF EXISTS memory._search_facts_ann(uuid, uuid, bigint, public.vector, integer, text, timestamptz, real);
