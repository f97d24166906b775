-- Refuse a write that added rows of a kind ('simulations' or a record kind) and leaves the
-- tenant above its cap in memory.tenant_quotas: 53400 (configuration_limit_exceeded), naming
-- the tenant, the kind, the cap and the count the write would reach; the caller's whole call
-- rolls back with it. Called through memory._check_quota, after the write and only when the
-- tenant has a cap of the kind, so the count includes what the write added.
-- Concurrent writers: the cap's row is locked (FOR UPDATE) before counting and held until
-- the transaction ends, so writers of the tenant and kind count one after another; under
-- READ COMMITTED each count sees every row the writers before it committed, and the cap
-- holds exactly. Under REPEATABLE READ or SERIALIZABLE a count sees the transaction's
-- snapshot, so concurrent writers may together pass the cap by their batches.
-- SECURITY DEFINER: no tenant role may lock memory.tenant_quotas (it holds SELECT only, so
-- it can neither raise its cap nor block another tenant); the row locked is the one of the
-- tenant memory._enter_tenant admitted the caller for (a writer calling it directly locks
-- its own tenant's cap, which blocks only that tenant's writers). Counting runs under
-- memory_owner's policies, which admit that tenant's rows only.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the grant of memory._acting_role() (the SET ROLE role, else the session
-- user) and the call's tenant setting, which memory._enter_tenant makes in this call, and the
-- session's lock_timeout for the row lock; its SET clauses pin the rest, and every value
-- passes as a parameter.
CREATE OR REPLACE FUNCTION memory._enforce_quota(p_tenant_id uuid, p_kind text) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_max  bigint;
    v_used bigint;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    SELECT q.max_rows INTO v_max FROM memory.tenant_quotas AS q
     WHERE q.tenant_id = p_tenant_id AND q.kind = p_kind
       FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    v_used := memory._quota_used(p_tenant_id, p_kind);
    IF v_used > v_max THEN
        RAISE EXCEPTION 'tenant % would hold % %, over its quota of %', p_tenant_id, v_used, p_kind, v_max
            USING ERRCODE = 'configuration_limit_exceeded',
                  HINT = pg_catalog.format('nothing of the call was written; an administrator raises or clears '
                                           'the tenant''s cap of %s with memory.set_quota()', p_kind);
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._enforce_quota(uuid, text) IS 'Internal: refuse (53400) a write that leaves the tenant above its quota of a kind; locks the cap''s row first (SECURITY DEFINER: tenant roles may not lock memory.tenant_quotas)';
GRANT EXECUTE ON FUNCTION memory._enforce_quota(uuid, text) TO memory_writer;
