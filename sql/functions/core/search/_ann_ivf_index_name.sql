-- The name of a simulation's bridge index over its episodes: memory.episodes_ivf_<sim_no>,
-- the simulation's opaque number (as memory._ann_index_name). An IVFFlat index over the
-- half-precision vectors, 100 lists, WHERE sim_no = <sim_no> AND embedding IS NOT NULL,
-- built first by `swarm-memory index` for a simulation without an HNSW index (many times
-- faster to build than the HNSW index) and dropped once the HNSW
-- index is built: memory._search_episodes_ivf searches through it meanwhile
-- (memory._ann_statements, memory._search_episodes).
CREATE OR REPLACE FUNCTION memory._ann_ivf_index_name(p_sim_no bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT 'episodes_ivf_' || p_sim_no::text
$fn$;

COMMENT ON FUNCTION memory._ann_ivf_index_name(bigint) IS 'Internal: the name of a simulation''s IVFFlat bridge index over its episodes (searched while its HNSW index is being built), from its opaque number';
GRANT EXECUTE ON FUNCTION memory._ann_ivf_index_name(bigint) TO memory_reader, memory_admin;
