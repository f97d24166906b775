-- memory.warm's indexes: load a simulation's own HNSW indexes (episodes, facts, the
-- entities' pair; those that exist) into shared buffers with pg_prewarm, when that extension
-- is installed; each index's pages, NULL when it is not. The function called is the
-- extension's own: its schema read from pg_extension, the call written with all five of its
-- arguments typed, so that no function another role may have created by that name in that
-- schema (another overload) can be chosen to run with this function's rights.
-- SECURITY DEFINER: pg_prewarm loads a relation only for a role that may read it, and an
-- index's one reader is its owner, memory_owner. What a caller learns is an index's size in
-- pages, which pg_class shows every role (relpages), and the index names are built here
-- from the simulation's opaque number, never from text a caller passes. It checks the
-- caller's grant for the simulation itself (memory._require_simulation), whoever calls it.
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: the grant of memory._acting_role() (the SET ROLE role, else the session
-- user) and the call's tenant setting, which memory._enter_tenant makes in this call
-- (through memory._require_simulation); its SET clauses pin the rest, and every value
-- passes as a parameter.
CREATE OR REPLACE FUNCTION memory._warm_indexes(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (part text, pages bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_sim_no  bigint;
    v_prewarm text;
    v_index   record;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT s.sim_no INTO STRICT v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    SELECT pg_catalog.format('%I.pg_prewarm', n.nspname) INTO v_prewarm
      FROM pg_catalog.pg_extension AS e JOIN pg_catalog.pg_namespace AS n ON n.oid = e.extnamespace
     WHERE e.extname = 'pg_prewarm';
    FOR v_index IN
        SELECT x.part, x.rel
          FROM (VALUES (1, 'episodes index', pg_catalog.to_regclass('memory.' || memory._ann_index_name(v_sim_no))),
                       (2, 'facts index', pg_catalog.to_regclass('memory.' || memory._facts_ann_index_name(v_sim_no))),
                       (3, 'entities name index', pg_catalog.to_regclass('memory.' || memory._entities_ann_index_name(v_sim_no))),
                       (4, 'entities summary index',
                        pg_catalog.to_regclass('memory.' || memory._entities_ann_index_name(v_sim_no) || '_summary')))
               AS x (n, part, rel)
         WHERE x.rel IS NOT NULL
         ORDER BY x.n
    LOOP
        part := v_index.part;
        pages := NULL;
        IF v_prewarm IS NOT NULL THEN
            EXECUTE pg_catalog.format('SELECT %s($1, $2::text, $3::text, NULL::bigint, NULL::bigint)', v_prewarm)
               INTO pages USING v_index.rel, 'buffer', 'main';
        END IF;
        RETURN NEXT;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION memory._warm_indexes(uuid, uuid) IS 'Internal: load a simulation''s own HNSW indexes into shared buffers with pg_prewarm when it is installed, for memory.warm (SECURITY DEFINER: an index''s one reader is its owner)';
GRANT EXECUTE ON FUNCTION memory._warm_indexes(uuid, uuid) TO memory_reader;
