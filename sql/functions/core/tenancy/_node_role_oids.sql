-- A role's OID on every node of a Citus cluster, by Citus group id ({"0": 16390, "1": 17022,
-- ...}): what memory.tenant_grants.node_role_oids holds (V0024). NULL where Citus is not
-- installed or has no nodes (one node: the grant's role_oid is the role). This node's entry
-- is p_role_oid itself; every other node is asked for the OID of the role of that name
-- there (run_command_on_all_nodes, over a connection as the current role). A node that
-- cannot be asked, or has no such role, is refused with 42704 naming it: a grant must not
-- be recorded half made. Read by memory.grant_tenant and by `swarm-memory distribute`.
CREATE OR REPLACE FUNCTION memory._node_role_oids(p_role_oid oid) RETURNS jsonb
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_name  name := (SELECT r.rolname FROM pg_catalog.pg_roles AS r WHERE r.oid = p_role_oid);
    v_group integer := memory._node_group();
    v_map   jsonb;
    v_bad   text;
BEGIN
    IF v_name IS NULL THEN
        RAISE EXCEPTION 'no role has OID %', p_role_oid
            USING ERRCODE = 'undefined_object', HINT = 'name an existing role';
    END IF;
    IF pg_catalog.to_regclass('pg_catalog.pg_dist_node') IS NULL THEN
        RETURN NULL;  -- no Citus (a separate test: the next one names a Citus table)
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_node AS n WHERE n.groupid <> v_group) THEN
        RETURN NULL;
    END IF;
    SELECT pg_catalog.jsonb_object_agg(n.groupid::text, CASE WHEN r.success AND COALESCE(r.result, '') ~ '^[0-9]+$' THEN r.result::oid END) FILTER (WHERE r.success AND COALESCE(r.result, '') ~ '^[0-9]+$'),
           pg_catalog.string_agg(pg_catalog.format('%s:%s (%s)', n.nodename, n.nodeport,
                                                   CASE WHEN r.success THEN 'no such role' ELSE r.result END), ', ')
               FILTER (WHERE NOT (r.success AND COALESCE(r.result, '') ~ '^[0-9]+$'))
      INTO v_map, v_bad
      FROM pg_catalog.run_command_on_all_nodes(
               pg_catalog.format('SELECT r.oid FROM pg_catalog.pg_roles AS r WHERE r.rolname = %L', v_name)) AS r
      JOIN pg_catalog.pg_dist_node AS n ON n.nodeid = r.nodeid
     WHERE n.groupid <> v_group AND n.noderole = 'primary';
    IF v_bad IS NOT NULL THEN
        RAISE EXCEPTION 'role % (OID %) is not known on every node of the cluster: %', v_name, p_role_oid, v_bad
            USING ERRCODE = 'undefined_object',
                  HINT = 'create roles on the coordinator (Citus creates them on the workers), and run swarm-memory distribute after adding a node';
    END IF;
    RETURN COALESCE(v_map, '{}'::jsonb) || pg_catalog.jsonb_build_object(v_group::text, p_role_oid);
END
$fn$;

COMMENT ON FUNCTION memory._node_role_oids(oid) IS 'Internal: a role''s OID on every node of a Citus cluster by group id (NULL without Citus), for memory.tenant_grants.node_role_oids';
GRANT EXECUTE ON FUNCTION memory._node_role_oids(oid) TO memory_admin;
