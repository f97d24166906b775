-- The most items one batch holds: processing a batch turns all of them into episodes in one
-- transaction, so the cap bounds that transaction. The one home of the number.
CREATE OR REPLACE FUNCTION memory._zep_batch_items_max() RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$ SELECT 10000 $fn$;

COMMENT ON FUNCTION memory._zep_batch_items_max() IS 'Internal: the most items of one Zep batch (10000)';
GRANT EXECUTE ON FUNCTION memory._zep_batch_items_max() TO memory_reader;
