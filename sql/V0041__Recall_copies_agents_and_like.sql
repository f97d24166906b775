-- V0041: memory.recall answers each post once: an episode whose text is another's word for
-- word joins the best of them, and its row counts the copies and agents behind it (the
-- columns copies and agents, appended); option like answers the episodes most like one
-- (its own vector; the episode and its copies left out). A function's result columns cannot
-- change in place: the old one goes and the re-applied file creates the new.
DROP FUNCTION IF EXISTS memory.recall(uuid, uuid, text, public.vector, integer, jsonb);
-- memory._search_words answers the share of the question each row explains (cover,
-- appended), by which recall weighs the words arm.
DROP FUNCTION IF EXISTS memory._search_words(uuid, uuid, text, integer, text[], uuid[], real[]);
-- A candidate of an arm carries how far the fusion trusts it (trust: a factor on its arm's
-- weight, NULL for 1): the words arm's rows by how much of the question they explain.
ALTER TYPE memory.recall_hit ADD ATTRIBUTE trust double precision;
