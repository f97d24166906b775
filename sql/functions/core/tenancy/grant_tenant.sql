-- Let a role act for a tenant: the role itself and every role that has its privileges
-- (members with INHERIT). The grant is kept by the role's OID, resolved here once: it
-- survives a rename, and dies with the role (a new role of the same name gains nothing).
-- The shared group roles are refused (every tenant role is a member of one). Grants left by
-- dropped roles are removed on the way (the grants read first, pg_roles apart: Citus plans a
-- query joining a Citus table with pg_roles by reading pg_authid, which only a superuser
-- may). On a Citus cluster the grant also records the role's OID on every node
-- (memory._node_role_oids; V0024), since the workers' OIDs differ: a node that does not
-- know the role refuses the grant (42704). Idempotent (a grant already made is kept as it
-- is; `swarm-memory distribute` brings its map up to date after a node is added; a grant
-- revoked on a cluster, its map emptied, is renewed).
CREATE OR REPLACE FUNCTION memory.grant_tenant(p_role name, p_tenant_id uuid) RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_role_oid oid;
    v_tenants  uuid[];
    v_oids     oid[];
BEGIN
    IF p_role IS NULL OR p_tenant_id IS NULL THEN
        RAISE EXCEPTION 'p_role and p_tenant_id must not be NULL (got %, %)', p_role, p_tenant_id
            USING ERRCODE = 'null_value_not_allowed', HINT = 'name an existing role and tenant';
    END IF;
    SELECT r.oid INTO v_role_oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = p_role;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'role % does not exist', p_role
            USING ERRCODE = 'undefined_object', HINT = 'create the role first (CREATE ROLE)';
    END IF;
    IF p_role = ANY (memory._group_roles()) THEN
        RAISE EXCEPTION 'role % is a shared group role: granting it tenant % would let all its members act for the tenant', p_role, p_tenant_id
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'grant the tenant to the application''s own role (CREATE ROLE app LOGIN IN ROLE memory_writer)';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM memory.tenants AS t WHERE t.tenant_id = p_tenant_id) THEN
        RAISE EXCEPTION 'unknown tenant %', p_tenant_id
            USING ERRCODE = 'no_data_found', HINT = 'create it with memory.create_tenant()';
    END IF;
    SELECT pg_catalog.array_agg(g.tenant_id), pg_catalog.array_agg(g.role_oid) INTO v_tenants, v_oids
      FROM memory.tenant_grants AS g
     WHERE g.node_role_oids IS DISTINCT FROM '{}'::jsonb;
    PERFORM memory._end_grant(d.tenant_id, d.role_oid)
       FROM ROWS FROM (pg_catalog.unnest(v_tenants), pg_catalog.unnest(v_oids)) AS d (tenant_id, role_oid)
      WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles AS r WHERE r.oid = d.role_oid);
    INSERT INTO memory.tenant_grants (tenant_id, role_oid, role_name, node_role_oids)
    VALUES (p_tenant_id, v_role_oid, p_role, memory._node_role_oids(v_role_oid))
    -- a grant revoked on a cluster (its map emptied, memory._end_grant) is renewed
    ON CONFLICT (tenant_id, role_oid) DO UPDATE SET node_role_oids = excluded.node_role_oids
     WHERE tenant_grants.node_role_oids = '{}'::jsonb;
END
$fn$;

COMMENT ON FUNCTION memory.grant_tenant(name, uuid) IS 'Let a role (by OID; and the roles that inherit its privileges) act for a tenant; refuses the shared group roles; memory_admin only';
GRANT EXECUTE ON FUNCTION memory.grant_tenant(name, uuid) TO memory_admin;
