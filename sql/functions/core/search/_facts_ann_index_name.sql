-- The name of a simulation's own approximate-nearest-neighbour index over its facts (the
-- vectors of memory.edges): memory.facts_ann_<sim_no>, the simulation's opaque number, as
-- memory._ann_index_name() names its episodes' index, so that neither the name nor the
-- predicate (WHERE sim_no = <sim_no>) tells any role whose simulation it is.
CREATE OR REPLACE FUNCTION memory._facts_ann_index_name(p_sim_no bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 'facts_ann_' || p_sim_no::text
$fn$;

COMMENT ON FUNCTION memory._facts_ann_index_name(bigint) IS 'Internal: the name of a simulation''s partial HNSW index over its facts, from its opaque number';
GRANT EXECUTE ON FUNCTION memory._facts_ann_index_name(bigint) TO memory_reader, memory_admin;
