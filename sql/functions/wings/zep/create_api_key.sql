-- Record a new API key of `swarm-memory serve`: its sha256 (the key itself is shown once by
-- the command that made it and never reaches the database), the first characters that
-- `key list` shows, the tenant and the role its requests run as. The role must exist and
-- hold its own grant for the tenant (memory.grant_tenant): a key whose role could not act
-- for its tenant would answer every request with a refusal. Administrators only (the
-- policy on memory.api_keys). Returns the key's id.
CREATE OR REPLACE FUNCTION memory.create_api_key(p_tenant_id uuid, p_role name, p_key_hash bytea, p_key_prefix text)
RETURNS uuid
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_oid oid;
    v_key uuid;
BEGIN
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the tenant the key acts for');
    PERFORM memory._not_null(p_role, 'p_role', 'pass the role the key''s requests run as');
    PERFORM memory._not_null(p_key_hash, 'p_key_hash', 'pass the sha256 of the key');
    PERFORM 1 FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'create it with memory.create_tenant()';
    END IF;
    SELECT r.oid INTO v_oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = p_role;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown role %', p_role
            USING ERRCODE = 'undefined_object', HINT = 'create the role first';
    END IF;
    PERFORM 1 FROM memory.tenant_grants AS g WHERE g.tenant_id = p_tenant_id AND g.role_oid = v_oid;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'role % holds no grant of its own for tenant %', p_role, p_tenant_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'grant it with memory.grant_tenant(role, tenant) first';
    END IF;
    INSERT INTO memory.api_keys (tenant_id, key_hash, key_prefix, role_oid, role_name)
    VALUES (p_tenant_id, p_key_hash, p_key_prefix, v_oid, p_role)
    RETURNING key_id INTO v_key;
    RETURN v_key;
END
$fn$;

COMMENT ON FUNCTION memory.create_api_key(uuid, name, bytea, text) IS 'Record an API key of swarm-memory serve by its sha256, bound to a tenant and the role its requests run as; memory_admin only';
GRANT EXECUTE ON FUNCTION memory.create_api_key(uuid, name, bytea, text) TO memory_admin;
