-- V0019: the words indexes of V0017 go. Every read runs under row-level security (forced,
-- even for the owner), and a text search operator (@@, ts_match_vq) is not leakproof, so
-- the planner may not use it as an index condition ahead of the policies: measured, every
-- words search and evidence link scanned the simulation's rows (through their tenant and
-- simulation keys) and filtered the stored documents, and the GIN indexes served no call
-- while costing the bulk import about a quarter of its speed (maintaining three GIN
-- indexes, each with the tenant's and the simulation's keys in every row). The stored
-- documents (the generated columns `words`) stay: ranking reads them.
DROP INDEX IF EXISTS memory.episodes_words_idx;
DROP INDEX IF EXISTS memory.edges_words_idx;
DROP INDEX IF EXISTS memory.nodes_words_idx;
