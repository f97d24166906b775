-- Run on every deploy: the triggers that keep the versions a change ends (memory.row_history,
-- V0015) on the record kinds whose history memory.history reads. Once a statement, with the
-- statement's old rows as a transition table: set-based, and nothing at all for a merge
-- that changed no row. The table is the trigger's argument (a shard of a distributed table has
-- a name of its own).
SET LOCAL search_path = pg_catalog, pg_temp;
CREATE OR REPLACE TRIGGER history_of_updates AFTER UPDATE ON memory.nodes
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._record_history('nodes');
CREATE OR REPLACE TRIGGER history_of_deletes AFTER DELETE ON memory.nodes
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._record_history('nodes');
CREATE OR REPLACE TRIGGER history_of_updates AFTER UPDATE ON memory.edges
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._record_history('edges');
CREATE OR REPLACE TRIGGER history_of_deletes AFTER DELETE ON memory.edges
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._record_history('edges');
CREATE OR REPLACE TRIGGER history_of_updates AFTER UPDATE ON memory.episodes
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._record_history('episodes');
CREATE OR REPLACE TRIGGER history_of_deletes AFTER DELETE ON memory.episodes
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._record_history('episodes');
