-- The Citus group id of the node this runs on (pg_dist_local_group: 0 the coordinator, each
-- worker its own), or 0 where Citus is not installed (one node). A grant's role on a worker is
-- memory.tenant_grants.node_role_oids at this key (V0024). Not a setting: a caller could SET
-- one, and the group would then pick another node's OID. Called only on a cluster (the grant
-- checks read it only for grants with a map).
CREATE OR REPLACE FUNCTION memory._node_group() RETURNS integer
LANGUAGE plpgsql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    IF pg_catalog.to_regclass('pg_catalog.pg_dist_local_group') IS NULL THEN
        RETURN 0;
    END IF;
    RETURN (SELECT l.groupid FROM pg_catalog.pg_dist_local_group AS l);
END
$fn$;

COMMENT ON FUNCTION memory._node_group() IS 'Internal: the Citus group id of this node (0: the coordinator, or one node without Citus)';
GRANT EXECUTE ON FUNCTION memory._node_group() TO memory_reader, memory_writer, memory_admin;
