-- Create a tenant, or return the existing one: a tenant name is unique, so repeating a call
-- changes nothing. An explicit id already used under another name (or a name already used
-- under another id) is a conflict (23505).
CREATE OR REPLACE FUNCTION memory.create_tenant(p_name text, p_tenant_id uuid DEFAULT NULL) RETURNS uuid
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_tenant_id uuid;
    v_name      text;
BEGIN
    IF p_name IS NULL OR p_name = '' THEN
        RAISE EXCEPTION 'p_name must not be NULL or empty'
            USING ERRCODE = 'null_value_not_allowed', HINT = 'name the tenant';
    END IF;

    SELECT t.tenant_id INTO v_tenant_id FROM memory.tenants AS t WHERE t.name = p_name;
    IF FOUND THEN
        IF p_tenant_id IS NOT NULL AND p_tenant_id <> v_tenant_id THEN
            RAISE EXCEPTION 'tenant name % is taken by tenant %', memory._quote(p_name), v_tenant_id
                USING ERRCODE = 'unique_violation', HINT = 'choose another name, or omit p_tenant_id';
        END IF;
        RETURN v_tenant_id;
    END IF;

    IF p_tenant_id IS NOT NULL THEN
        SELECT t.name INTO v_name FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id;
        IF FOUND THEN
            RAISE EXCEPTION 'tenant % exists under the name %', p_tenant_id, memory._quote(v_name)
                USING ERRCODE = 'unique_violation', HINT = 'use another id, or the existing name';
        END IF;
    END IF;

    INSERT INTO memory.tenants (tenant_id, name)
    VALUES (COALESCE(p_tenant_id, pg_catalog.gen_random_uuid()), p_name)
    RETURNING tenant_id INTO v_tenant_id;
    RETURN v_tenant_id;
END
$fn$;

COMMENT ON FUNCTION memory.create_tenant(text, uuid) IS 'Create a tenant (or return the one of that name); memory_admin only';
GRANT EXECUTE ON FUNCTION memory.create_tenant(text, uuid) TO memory_admin;
