-- Make p_tenant_id the tenant of the current transaction for the row-level security
-- policies: the one place that writes the setting for a call (memory._enter_tenant after it
-- has checked nothing yet, memory._enter_tenant_as_admin after memory._require_admin). It
-- checks no grant: the policies admit a tenant's rows only to a role that holds a grant for
-- it (memory._current_tenant_id), so a forged setting reads nothing.
--
-- On a Citus coordinator the statements of the call that Citus sends to the workers (the
-- import functions, which stay on the coordinator) must carry the tenant there: set_config
-- does not reach them, SET LOCAL with propagate_set_commands does. The setting is the same
-- value set_config wrote; the policies on the workers check the grant as here. The policies
-- of a shard read memory.tenant_grants (memory._current_tenant_id), a reference table with a
-- copy on every node: a worker refuses that read inside a statement sent to one of its
-- shards (a nested distributed query) unless allowed, and it reads the local copy. Nothing
-- happens without Citus. SET LOCAL of these settings outlives this function (its own SET
-- clause restores search_path only), as set_config(..., true) does.
CREATE OR REPLACE FUNCTION memory._set_tenant(p_tenant_id uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM pg_catalog.set_config('memory.tenant_id', p_tenant_id::text, true);
    IF pg_catalog.current_setting('citus.propagate_set_commands', true) IS NOT NULL THEN
        SET LOCAL citus.propagate_set_commands = 'local';
        SET LOCAL citus.allow_nested_distributed_execution = on;
        EXECUTE pg_catalog.format('SET LOCAL memory.tenant_id = %L', p_tenant_id);
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._set_tenant(uuid) IS 'Internal: make a tenant the tenant of the transaction for the policies (and, on Citus, of the statements sent to the workers); checks no grant';
GRANT EXECUTE ON FUNCTION memory._set_tenant(uuid) TO memory_reader, memory_writer, memory_admin;
