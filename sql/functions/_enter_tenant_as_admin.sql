-- The administrators' SECURITY DEFINER functions (memory.delete_tenant, memory._delete_grant,
-- memory._ann_counts) call this first: it refuses a session user without memory_admin's
-- privileges (42501, memory._require_admin) and a NULL tenant (22004), then makes p_tenant_id
-- the tenant of the transaction, so that memory_owner's policies admit that tenant's rows and
-- no other's.
-- Administrators hold no tenant grant, so memory._enter_tenant would refuse them.
CREATE OR REPLACE FUNCTION memory._enter_tenant_as_admin(p_tenant_id uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._require_admin();
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the id of the tenant to act on');
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
END
$fn$;

COMMENT ON FUNCTION memory._enter_tenant_as_admin(uuid) IS 'Internal: check the session user is an administrator (42501) and make a tenant the tenant of the transaction';
GRANT EXECUTE ON FUNCTION memory._enter_tenant_as_admin(uuid) TO memory_admin;
