-- Apply every tenant's retention and compaction policy (memory.set_retention), or one
-- tenant's: what a scheduler or pg_cron runs (`SELECT * FROM memory.sweep()` as a role with
-- memory_admin's privileges). Simulations older than the tenant's keep_days (by their last
-- change) are deleted, one change each in the feed (op retention); a simulation being
-- imported into is kept and reported; then near-duplicate episodes are compacted where the
-- policy says so (op compact). One row per action. A tenant's sweep commits with the call.
-- p_now: the moment ages are measured from (default now()).
-- On a Citus cluster this function is not delegated (its tenant may be NULL, which Citus
-- 14.0.1 cannot route: docs/scale-out.md) and refuses with 0A000: the deletes of a sweep
-- run on the tenant's worker, through memory.sweep_tenant, one call a tenant.
CREATE OR REPLACE FUNCTION memory.sweep(p_tenant_id uuid DEFAULT NULL, p_now timestamptz DEFAULT NULL)
RETURNS TABLE (tenant_id uuid, simulation_id uuid, action text, detail jsonb)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_tenant uuid;
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._refuse_on_cluster('sweep', 'memory.sweep_tenant(tenant_id) for each tenant');
    FOR v_tenant IN SELECT t.tenant_id FROM memory.tenants AS t
                     WHERE p_tenant_id IS NULL OR t.tenant_id = p_tenant_id ORDER BY t.tenant_id LOOP
        RETURN QUERY SELECT v_tenant, w.simulation_id, w.action, w.detail
                       FROM memory._sweep_tenant(v_tenant, COALESCE(p_now, pg_catalog.now())) AS w;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION memory.sweep(uuid, timestamptz) IS 'Apply the tenants'' retention and compaction policies (memory.set_retention); what a scheduler or pg_cron runs; memory_admin only';
GRANT EXECUTE ON FUNCTION memory.sweep(uuid, timestamptz) TO memory_admin;
