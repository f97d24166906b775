-- The name of a simulation's own approximate-nearest-neighbour index over its episodes:
-- memory.episodes_ann_<first 24 hex digits of md5(tenant/simulation)>. Deterministic, so
-- searches find it with to_regclass() and `swarm-memory index` knows what to build.
CREATE OR REPLACE FUNCTION memory._ann_index_name(p_tenant_id uuid, p_simulation_id uuid) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 'episodes_ann_' || pg_catalog.left(pg_catalog.md5(p_tenant_id::text || '/' || p_simulation_id::text), 24)
$fn$;

COMMENT ON FUNCTION memory._ann_index_name(uuid, uuid) IS 'Internal: the name of a simulation''s partial HNSW index over its episodes';
REVOKE ALL ON FUNCTION memory._ann_index_name(uuid, uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory._ann_index_name(uuid, uuid) TO memory_reader, memory_admin;
