-- Every API function calls this first: it refuses a NULL tenant (22004) and a tenant the
-- caller holds no grant for (42501, the same whether the tenant exists or not), and makes
-- p_tenant_id the tenant of the current transaction for the RLS policies. The caller is the
-- current role, or the session user inside memory_owner's SECURITY DEFINER functions
-- (memory._holds_grant). The tenant is set before the check because memory_owner's policy on
-- memory.tenant_grants shows it the grants of the call's tenant only; a refusal rolls the
-- setting back with the statement, and no tenant data is read before it.
CREATE OR REPLACE FUNCTION memory._enter_tenant(p_tenant_id uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the id of the tenant the call acts for');
    PERFORM pg_catalog.set_config('memory.tenant_id', p_tenant_id::text, true);
    -- On a Citus coordinator the statements of the call that Citus sends to the workers
    -- (the import functions, which stay on the coordinator) must carry the tenant there:
    -- set_config does not reach them, SET LOCAL with propagate_set_commands does. The
    -- setting is the same value the line above set; the caller's grant is checked below
    -- and by every policy on the workers as here. The policies of a shard read
    -- memory.tenant_grants (memory._current_tenant_id), a reference table with a copy on
    -- every node: a worker refuses that read inside a statement sent to one of its shards
    -- (a nested distributed query) unless allowed, and it reads the local copy. Nothing
    -- happens without Citus.
    IF pg_catalog.current_setting('citus.propagate_set_commands', true) IS NOT NULL THEN
        SET LOCAL citus.propagate_set_commands = 'local';
        SET LOCAL citus.allow_nested_distributed_execution = on;
        EXECUTE pg_catalog.format('SET LOCAL memory.tenant_id = %L', p_tenant_id);
    END IF;
    IF NOT memory._holds_grant(p_tenant_id) THEN
        RAISE EXCEPTION 'role % holds no grant for tenant %',
                        CASE WHEN CURRENT_USER = 'memory_owner' THEN SESSION_USER ELSE CURRENT_USER END, p_tenant_id
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'an administrator grants it with memory.grant_tenant(role, tenant); the grant counts for roles with the granted role''s privileges (INHERIT)';
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._enter_tenant(uuid) IS 'Internal: check the caller''s grant for a tenant (42501) and make it the tenant of the transaction';
GRANT EXECUTE ON FUNCTION memory._enter_tenant(uuid) TO memory_reader, memory_writer, memory_admin;
