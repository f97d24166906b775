-- The API keys of a tenant, newest first, as `swarm-memory key list` shows them: never the
-- key (not stored) nor its hash, only its first characters, its role and whether it was
-- revoked. Administrators only (the policy on memory.api_keys).
CREATE OR REPLACE FUNCTION memory.api_keys(p_tenant_id uuid)
RETURNS TABLE (key_id uuid, key_prefix text, role_name name, created_at timestamptz,
               created_by name, revoked_at timestamptz)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the tenant whose keys to list');
    SELECT k.key_id, k.key_prefix, k.role_name, k.created_at, k.created_by, k.revoked_at
      FROM memory.api_keys AS k
     WHERE k.tenant_id = p_tenant_id
     ORDER BY k.created_at DESC, k.key_id;
$fn$;

COMMENT ON FUNCTION memory.api_keys(uuid) IS 'The API keys of a tenant (first characters, role, revoked or not); memory_admin only';
GRANT EXECUTE ON FUNCTION memory.api_keys(uuid) TO memory_admin;
