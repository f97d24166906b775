-- The name of the HNSW index over the representatives of one clump build of a simulation:
-- memory.search_points_ann_<sim_no>_<build_no>, its predicate WHERE build_no = <build_no>.
-- Both are opaque numbers (memory.simulations.sim_no, memory.search_builds.build_no), so
-- the catalog tells no role whose simulation it is; the simulation's number lets
-- memory.ann_index drop it with the simulation's other index.
CREATE OR REPLACE FUNCTION memory._clump_index_name(p_sim_no bigint, p_build_no bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 'search_points_ann_' || p_sim_no::text || '_' || p_build_no::text
$fn$;

COMMENT ON FUNCTION memory._clump_index_name(bigint, bigint) IS 'Internal: the name of the HNSW index over a clump build''s representatives, from opaque numbers';
GRANT EXECUTE ON FUNCTION memory._clump_index_name(bigint, bigint) TO memory_reader, memory_admin;
