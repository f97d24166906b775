-- V0037: nothing a session sets reaches owner rights.
-- 1. The session prepared statements of the index searches go: a statement was reused when
--    its text matched, and a caller could prepare that text first under its own search_path
--    (a temporary domain named uuid, say), which memory_owner's definers then ran. The index
--    searches pass their arguments with USING again and prepare nothing in the session.
-- 2. memory._warm_indexes takes the tenant and simulation and checks the grant itself (it
--    took a simulation's number and trusted its caller).
-- The re-applied files create the new forms; the old ones are dropped here.
DROP FUNCTION IF EXISTS memory._prepared(text, text);
DROP FUNCTION IF EXISTS memory._warm_indexes(bigint);
