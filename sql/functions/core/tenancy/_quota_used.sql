-- How many of a quota kind the tenant holds now: its simulations ('simulations'), or its
-- rows of a record kind over all of its simulations, as the caller's row-level security
-- shows them (memory._check_quota and memory.quotas call it as memory_owner, with the
-- tenant entered). A name that is neither is 22023 (memory._kind).
CREATE OR REPLACE FUNCTION memory._quota_used(p_tenant_id uuid, p_kind text) RETURNS bigint
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_used bigint;
BEGIN
    IF p_kind = 'simulations' THEN
        SELECT pg_catalog.count(*) INTO v_used FROM memory.simulations AS s WHERE s.tenant_id = p_tenant_id;
    ELSE
        EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s AS l WHERE l.tenant_id = $1',
                                  (memory._kind(p_kind)).live)
           INTO v_used USING p_tenant_id;
    END IF;
    RETURN v_used;
END
$fn$;

COMMENT ON FUNCTION memory._quota_used(uuid, text) IS 'Internal: the tenant''s simulations, or its rows of a record kind, as the caller sees them (what a quota counts)';
