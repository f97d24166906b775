-- V0036 (issue 12): recall's entities arm compares each entity by the meaning of what is
-- known of it: its summary's vector, or, for an entity without a summary, its name's
-- ("{type}: {name}"). memory.search_nodes offers it as p_by 'meaning'. Through the
-- simulation's pair of indexes (V0035) that is one HNSW search, of the summaries, and an
-- exact comparison of the entities without a summary, which this partial index finds
-- without reading the simulation's others (without it, every entity's row of the
-- simulation was read to find those without a summary: 14 ms at 10,000 entities that all
-- have one, against 0.4 ms).
-- It was the nearer of the two vectors ('both', two HNSW searches): on the labelled set of
-- bench/recall_eval.json (48 questions, English and Chinese) routed recall@10 0.627 ->
-- 0.648, nDCG@10 0.598 -> 0.605, the semantic questions 0.354 -> 0.413 (a name is still
-- found by recall's words and graph arms, through its trigrams); at 10,000 entities of the
-- bench's simulation of 200,000 episodes the arm's searches took 4.6 ms a question, against
-- 8.7 ms for the pair.
CREATE INDEX nodes_without_summary_idx ON memory.nodes (tenant_id, simulation_id)
 WHERE summary_embedding IS NULL AND embedding IS NOT NULL;
