-- Insert or update predictions from a jsonb array of
--   {id, claim, horizon, confidence, report_id, section_index, metadata}:
-- id and claim required, confidence a number from 0 to 1. Rows written here have source
-- 'api': no import removes them. A recorded outcome is not touched (memory.record_outcome).
CREATE OR REPLACE FUNCTION memory.upsert_predictions(p_tenant_id uuid, p_simulation_id uuid, p_predictions jsonb)
RETURNS TABLE (inserted bigint, updated bigint, unchanged bigint)
LANGUAGE sql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
    SELECT * FROM memory._upsert('predictions', p_tenant_id, p_simulation_id, p_predictions)  -- with its change (V0021)
$fn$;

COMMENT ON FUNCTION memory.upsert_predictions(uuid, uuid, jsonb) IS 'Insert or update predictions (key: id) of a simulation; atomic and idempotent; outcomes untouched';
GRANT EXECUTE ON FUNCTION memory.upsert_predictions(uuid, uuid, jsonb) TO memory_writer;
