-- Run on every deploy: the triggers that keep memory.word_postings (V0020) the words of the
-- rows of episodes, edges and nodes. Once a statement, with the statement's rows as
-- transition tables (one event a trigger: PostgreSQL allows transition tables only so), the
-- table named as the trigger's argument.
SET LOCAL search_path = pg_catalog, pg_temp;
DO $words$
DECLARE
    v_table text;
BEGIN
    FOREACH v_table IN ARRAY ARRAY['episodes', 'edges', 'nodes'] LOOP
        EXECUTE pg_catalog.format('CREATE OR REPLACE TRIGGER words_of_inserts AFTER INSERT ON memory.%I
            REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._index_words(%L)', v_table, v_table);
        EXECUTE pg_catalog.format('CREATE OR REPLACE TRIGGER words_of_updates AFTER UPDATE ON memory.%I
            REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._index_words(%L)', v_table, v_table);
        EXECUTE pg_catalog.format('CREATE OR REPLACE TRIGGER words_of_deletes AFTER DELETE ON memory.%I
            REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memory._index_words(%L)', v_table, v_table);
    END LOOP;
END
$words$;
