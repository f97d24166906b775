-- Revoke an API key: it authenticates nothing from this commit on (memory.api_key_role
-- skips revoked keys), and its role's grant for the tenant ends (memory.revoke_tenant), so
-- a request already past the lookup reads nothing more. The row stays, with when it was
-- revoked; revoking twice keeps the first time. Returns the key's role, which the caller
-- may drop. An unknown key is P0002.
CREATE OR REPLACE FUNCTION memory.revoke_api_key(p_tenant_id uuid, p_key_id uuid)
RETURNS TABLE (role_name name, revoked_at timestamptz)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_role name;
    v_at   timestamptz;
BEGIN
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the tenant of the key');
    PERFORM memory._not_null(p_key_id, 'p_key_id', 'pass the id `swarm-memory key list` shows');
    UPDATE memory.api_keys AS k SET revoked_at = COALESCE(k.revoked_at, pg_catalog.now())
     WHERE k.tenant_id = p_tenant_id AND k.key_id = p_key_id
    RETURNING k.role_name, k.revoked_at INTO v_role, v_at;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown key % of tenant %', p_key_id, p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'list the keys with memory.api_keys(tenant)';
    END IF;
    PERFORM memory.revoke_tenant(v_role, p_tenant_id);
    RETURN QUERY SELECT v_role, v_at;
END
$fn$;

COMMENT ON FUNCTION memory.revoke_api_key(uuid, uuid) IS 'Revoke an API key and end its role''s grant for the tenant; memory_admin only';
GRANT EXECUTE ON FUNCTION memory.revoke_api_key(uuid, uuid) TO memory_admin;
