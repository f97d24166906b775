-- memory.recall finds the entities its question names once, for its words and its graph arms
-- (each found them again before): the graph arm, memory._recall_graph, takes them as two
-- more arguments. The old signature goes; the repeatable functions create the new one, and
-- memory._search_words, the words arm's work that memory.search_words now wraps.
DROP FUNCTION IF EXISTS memory._recall_graph(uuid, uuid, text, integer, integer, timestamptz);
