-- V0050: the walk's covering indexes hold what is bounded and nothing else. They stay as V0015
-- made them: the keys at both ends, the edge's key, its type (a label, at most
-- memory._label_max() characters, which the tables' checks enforce) and its three times.
-- The upstream ids stay out of them: an id is text of any length (DESIGN.md), and a btree
-- tuple is not, so an index that carried the ids would refuse an edge with a long id where
-- the table stores it. The walk runs over the keys and turns them into ids only for the
-- nodes it found, by a scan of the edges' primary key (memory.neighbor_ids,
-- memory.neighbors). The comments say so where the next reader of the indexes looks.
COMMENT ON INDEX memory.edges_out_idx IS
    'The outgoing step of the walk, index-only: keys, type and times, bounded all; never the upstream ids, which are text of any length';
COMMENT ON INDEX memory.edges_in_idx IS
    'The incoming step of the walk, index-only: keys, type and times, bounded all; never the upstream ids, which are text of any length';
