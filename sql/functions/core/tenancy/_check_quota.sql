-- After a write that inserted rows of a kind ('simulations' or a record kind): when the
-- tenant has a cap of the kind, hold the write to it (memory._enforce_quota: the cap's row
-- locked, the tenant's rows counted, 53400 beyond it). A tenant without a cap pays one
-- primary-key probe of memory.tenant_quotas, read under the caller's own policies (the
-- tenant the call entered), and counts nothing. Called by memory._merge (the upserts,
-- upsert_edges and commit_import), memory.upsert_simulation and memory.begin_import.
CREATE OR REPLACE FUNCTION memory._check_quota(p_tenant_id uuid, p_kind text) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF EXISTS (SELECT 1 FROM memory.tenant_quotas AS q WHERE q.tenant_id = p_tenant_id AND q.kind = p_kind) THEN
        PERFORM memory._enforce_quota(p_tenant_id, p_kind);
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._check_quota(uuid, text) IS 'Internal: after a write that inserted rows of a kind, hold the tenant to its cap of the kind when it has one (memory._enforce_quota, 53400)';
GRANT EXECUTE ON FUNCTION memory._check_quota(uuid, text) TO memory_writer;
