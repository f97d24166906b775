-- memory.recall's episodes arm re-ranks fewer candidates than memory.search_episodes does
-- for the same number of hits: memory.search_episodes' work moves into
-- memory._search_episodes, which takes the pool, and memory._search_episodes_ann takes it as
-- one more argument. The old signature goes; the repeatable functions create the new one.
DROP FUNCTION IF EXISTS memory._search_episodes_ann(uuid, uuid, bigint, public.vector, integer, integer, real,
                                                    integer, integer, timestamptz, timestamptz);
