-- The name of a simulation's own approximate-nearest-neighbour index over its entities' name
-- vectors (memory.nodes.embedding, the vector of "{type}: {name}"): memory.entities_ann_<sim_no>,
-- the simulation's opaque number; its summary vectors' index is that name with _summary. As
-- memory._ann_index_name() names the episodes' index, neither the names nor the predicate
-- (WHERE sim_no = <sim_no>) tell any role whose simulation it is.
CREATE OR REPLACE FUNCTION memory._entities_ann_index_name(p_sim_no bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 'entities_ann_' || p_sim_no::text
$fn$;

COMMENT ON FUNCTION memory._entities_ann_index_name(bigint) IS 'Internal: the name of a simulation''s partial HNSW index over its entities'' name vectors (with _summary: over their summary vectors), from its opaque number';
GRANT EXECUTE ON FUNCTION memory._entities_ann_index_name(bigint) TO memory_reader, memory_admin;
