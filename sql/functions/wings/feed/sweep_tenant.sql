-- Apply one tenant's retention and compaction policy (memory.set_retention), as
-- memory.sweep does for every tenant: the form a Citus cluster runs, where the call goes
-- whole to the tenant's worker and its deletes are local there (memory.sweep, which takes no
-- tenant or all of them, stays on the coordinator and refuses to sweep there; `swarm-memory
-- sweep` calls this once a tenant). NULL tenant 22004; a tenant without a policy, or
-- unknown: no row. p_now: the moment ages are measured from (default now()). memory_admin only.
CREATE OR REPLACE FUNCTION memory.sweep_tenant(p_tenant_id uuid, p_now timestamptz DEFAULT NULL)
RETURNS TABLE (tenant_id uuid, simulation_id uuid, action text, detail jsonb)
LANGUAGE sql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
    SELECT memory._enter_tenant_as_admin(p_tenant_id);
    SELECT p_tenant_id, w.simulation_id, w.action, w.detail
      FROM memory._sweep_tenant(p_tenant_id, COALESCE(p_now, pg_catalog.now())) AS w;
$fn$;

COMMENT ON FUNCTION memory.sweep_tenant(uuid, timestamptz) IS 'Apply one tenant''s retention and compaction policy (memory.set_retention); the per-tenant sweep a Citus cluster runs on the tenant''s worker; memory_admin only';
GRANT EXECUTE ON FUNCTION memory.sweep_tenant(uuid, timestamptz) TO memory_admin;
