-- The authentication of every request of `swarm-memory serve`: the tenant and the role of
-- the unrevoked key whose sha256 is p_key_hash, or no row. It takes no tenant argument
-- because the key is what names the tenant: the service, connected as an administrator,
-- calls it and then runs the request as the role it answers (SET ROLE), so no request data
-- picks a tenant. The role is named as it is called now (a renamed role still serves its
-- keys; a dropped one serves none).
CREATE OR REPLACE FUNCTION memory.api_key_role(p_key_hash bytea)
RETURNS TABLE (tenant_id uuid, key_id uuid, role_name name)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT k.tenant_id, k.key_id, r.rolname
      FROM memory.api_keys AS k
      JOIN pg_catalog.pg_roles AS r ON r.oid = k.role_oid
     WHERE k.key_hash = p_key_hash AND k.revoked_at IS NULL;
$fn$;

COMMENT ON FUNCTION memory.api_key_role(bytea) IS 'The tenant and role of an unrevoked API key by its sha256 (the service''s authentication); memory_admin only';
GRANT EXECUTE ON FUNCTION memory.api_key_role(bytea) TO memory_admin;
