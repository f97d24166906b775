-- A tenant's quotas: one row a kind ('simulations', then the record kinds in their order),
-- its cap (NULL: none), what the tenant holds now, and who set the cap when. For an
-- administrator, or a role granted the tenant (it may see how much room it has left); 42501
-- otherwise, P0002 for an unknown tenant. Counts every kind: an administrator's look, not a
-- hot path.
-- SECURITY DEFINER: an administrator holds no tenant grant, yet counts the tenant's rows; the
-- caller is checked as memory._acting_role() (memory_admin, else memory._enter_tenant's
-- grant) and the owner's policies keep every read to the tenant entered.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the privileges or grant of memory._acting_role() and the call's tenant
-- setting, which this call makes; its SET clauses pin the rest, and every value passes as a
-- parameter.
CREATE OR REPLACE FUNCTION memory.quotas(p_tenant_id uuid)
RETURNS TABLE (kind text, max_rows bigint, used bigint, updated_at timestamptz, updated_by name)
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF pg_catalog.pg_has_role(memory._acting_role(), 'memory_admin', 'USAGE') THEN
        PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    ELSE
        PERFORM memory._enter_tenant(p_tenant_id);
    END IF;
    PERFORM 1 FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'list the tenants with memory.list_tenants()';
    END IF;
    RETURN QUERY
    SELECT k.kind, q.max_rows, memory._quota_used(p_tenant_id, k.kind), q.updated_at, q.updated_by
      FROM (SELECT 'simulations'::text AS kind, 0 AS ord
            UNION ALL
            SELECT r.kind, r.ord FROM memory._record_kinds() AS r) AS k
      LEFT JOIN memory.tenant_quotas AS q ON q.tenant_id = p_tenant_id AND q.kind = k.kind
     ORDER BY k.ord;
END
$fn$;

COMMENT ON FUNCTION memory.quotas(uuid) IS 'A tenant''s caps by kind (NULL: none) beside what it holds now; memory_admin or a role granted the tenant (SECURITY DEFINER)';
GRANT EXECUTE ON FUNCTION memory.quotas(uuid) TO memory_reader, memory_admin;
