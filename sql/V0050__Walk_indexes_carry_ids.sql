-- V0050: nothing to change. The walk's covering indexes (edges_out_idx, edges_in_idx) stay as
-- V0015 made them: the keys at both ends, the edge's key, its type (a label, at most
-- memory._label_max() characters, which the tables' checks enforce) and its three times,
-- all bounded. The upstream ids stay out of them: an id is text of any length (DESIGN.md)
-- and a btree tuple is not, so an index that carried the ids would refuse an edge with a
-- long id that the table stores. The walks (memory.neighbor_ids, memory.neighbors) run over
-- the keys and read the ids afterwards, by one scan of the edges' primary key for the edges
-- they picked. This file changes no object: a database deployed before it with V0052 applied
-- skips it (its number is lower), and must still end where a fresh deploy does.
SELECT 1;
