-- V0041: memory.recall answers each post once: an episode whose text is another's word for
-- word joins the best of them, and its row counts the copies and agents behind it (the
-- columns copies and agents, appended); option like answers the episodes most like one
-- (its own vector; the episode and its copies left out). A function's result columns cannot
-- change in place: the old one goes and the re-applied file creates the new.
DROP FUNCTION IF EXISTS memory.recall(uuid, uuid, text, public.vector, integer, jsonb);
