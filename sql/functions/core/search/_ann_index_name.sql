-- The name of a simulation's own approximate-nearest-neighbour index over its episodes:
-- memory.episodes_ann_<sim_no>, the simulation's opaque number (memory.simulations.sim_no),
-- so that neither the name nor the predicate (WHERE sim_no = <sim_no>) tells any role whose
-- simulation it is. Deterministic, so searches find it with to_regclass() and
-- memory.ann_plan() knows what to build.
CREATE OR REPLACE FUNCTION memory._ann_index_name(p_sim_no bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 'episodes_ann_' || p_sim_no::text
$fn$;

COMMENT ON FUNCTION memory._ann_index_name(bigint) IS 'Internal: the name of a simulation''s partial HNSW index over its episodes, from its opaque number';
GRANT EXECUTE ON FUNCTION memory._ann_index_name(bigint) TO memory_reader, memory_admin;
