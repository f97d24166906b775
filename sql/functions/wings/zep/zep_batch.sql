-- Zep's batch.get: a batch of the caller's tenant with its status and progress, derived from
-- its items' episodes once processed. One the tenant does not have is P0002.
CREATE OR REPLACE FUNCTION memory.zep_batch(p_tenant_id uuid, p_batch_id uuid)
RETURNS jsonb
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._zep_batch_json(memory._zep_batch(p_tenant_id, p_batch_id));
$fn$;

COMMENT ON FUNCTION memory.zep_batch(uuid, uuid) IS 'Zep batch.get: a batch, its status and progress (P0002 when unknown)';
GRANT EXECUTE ON FUNCTION memory.zep_batch(uuid, uuid) TO memory_reader;
