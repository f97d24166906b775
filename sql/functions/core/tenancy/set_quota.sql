-- Set a tenant's cap on a kind: 'simulations' (how many simulations it may hold) or a record
-- kind of memory._record_kinds() (how many rows of the kind over all of its simulations).
-- p_max NULL removes the cap (no cap is the default: unlimited); below 0 22023. A cap below
-- what the tenant holds refuses only its writes that add rows of the kind (53400, see
-- memory._check_quota); nothing is removed. Unknown kind 22023, unknown tenant P0002.
-- memory_admin only. Repeating a call changes nothing.
-- SECURITY DEFINER: administrators hold no write privilege on memory.tenant_quotas (with it
-- they could lock the table against every tenant's writes); the caller is checked as
-- memory._acting_role() (memory._enter_tenant_as_admin).
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory._acting_role()'s memory_admin privileges and the call's tenant
-- setting, which memory._enter_tenant_as_admin makes in this call; its SET clauses pin the
-- rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory.set_quota(p_tenant_id uuid, p_kind text, p_max bigint)
RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    PERFORM memory._not_null(p_kind, 'p_kind', 'simulations, or a record kind such as nodes');
    IF p_kind <> 'simulations' AND NOT EXISTS (SELECT 1 FROM memory._record_kinds() AS k WHERE k.kind = p_kind) THEN
        RAISE EXCEPTION 'unknown quota kind %', memory._quote(p_kind)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'one of simulations, ' || (SELECT pg_catalog.string_agg(k.kind, ', ' ORDER BY k.ord)
                                                      FROM memory._record_kinds() AS k);
    END IF;
    IF p_max < 0 THEN
        RAISE EXCEPTION 'p_max must be 0 or more, not %', p_max
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass the most the tenant may hold, or NULL for no cap';
    END IF;
    PERFORM 1 FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'list the tenants with memory.list_tenants()';
    END IF;
    IF p_max IS NULL THEN
        DELETE FROM memory.tenant_quotas AS q WHERE q.tenant_id = p_tenant_id AND q.kind = p_kind;
        RETURN;
    END IF;
    -- the time and the user come from the proposed row (Citus refuses functions that are
    -- not immutable in the DO UPDATE SET of a distributed table)
    INSERT INTO memory.tenant_quotas AS q (tenant_id, kind, max_rows, updated_at, updated_by)
    VALUES (p_tenant_id, p_kind, p_max, pg_catalog.now(), memory._acting_role())
    ON CONFLICT (tenant_id, kind) DO UPDATE
       SET max_rows = excluded.max_rows, updated_at = excluded.updated_at, updated_by = excluded.updated_by
     WHERE q.max_rows IS DISTINCT FROM excluded.max_rows;
END
$fn$;

COMMENT ON FUNCTION memory.set_quota(uuid, text, bigint) IS 'Set (or, with NULL, remove) a tenant''s cap on its simulations or its rows of a record kind; memory_admin only (SECURITY DEFINER)';
GRANT EXECUTE ON FUNCTION memory.set_quota(uuid, text, bigint) TO memory_admin;
