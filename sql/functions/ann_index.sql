-- Carry out one action of memory.ann_plan() for the simulation numbered p_sim_no: 'build'
-- (drop an invalid leftover, create), 'rebuild' (create beside the old index, drop it, take
-- its name), 'drop' (also the indexes of its clump builds, memory._clump_build). The index: HNSW over half-precision vectors, m = p_m, ef_construction =
-- p_ef_construction, WHERE sim_no = p_sim_no; its name and predicate carry only the number.
-- Returns the statements, in order.
--
-- p_run (default): the statements run here, as memory_owner, so that an administrator of a
-- managed PostgreSQL (no superuser, no membership in memory_owner) can build the indexes.
-- CREATE INDEX CONCURRENTLY cannot run inside a function, so the build is a plain CREATE
-- INDEX: it holds memory.episodes in SHARE mode until the call ends, and every tenant's
-- writes to episodes wait that long (reads go on); a build takes about a second per 2,000
-- episodes here. Run it when imports are quiet.
-- NOT p_run: the statements are only returned, with CONCURRENTLY, for a caller that may act
-- as the table's owner (a superuser) to run one by one outside a transaction; nothing waits
-- then. `swarm-memory index` takes this way when it connects as a superuser.
-- SECURITY DEFINER: only the owner of memory.episodes may index it. The caller is checked
-- as the session user (memory._require_admin); the one dynamic statement takes only
-- numbers and the name memory._ann_index_name() makes from a number.
CREATE OR REPLACE FUNCTION memory.ann_index(
    p_sim_no bigint,
    p_action text,
    p_m integer DEFAULT 32,
    p_ef_construction integer DEFAULT 128,
    p_run boolean DEFAULT true)
RETURNS SETOF text
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_name   text := memory._ann_index_name(p_sim_no);
    v_how    text := CASE WHEN p_run THEN '' ELSE 'CONCURRENTLY ' END;
    v_create text;
    v_stmts  text[];
    v_stmt   text;
BEGIN
    PERFORM memory._require_admin();
    IF p_sim_no IS NULL OR p_action IS NULL OR p_run IS NULL THEN
        RAISE EXCEPTION 'p_sim_no, p_action and p_run must not be NULL'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'take a row of memory.ann_plan(): its sim_no and action';
    END IF;
    v_create := pg_catalog.format(
        'CREATE INDEX %s%%I ON memory.episodes USING hnsw ((embedding::public.halfvec(384)) public.halfvec_cosine_ops)'
        ' WITH (m = %s, ef_construction = %s) WHERE sim_no = %s',
        v_how, COALESCE(p_m, 32), COALESCE(p_ef_construction, 128), p_sim_no);
    v_stmts := CASE p_action
        WHEN 'build' THEN ARRAY[
            pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', v_how, v_name),
            pg_catalog.format(v_create, v_name)]
        WHEN 'rebuild' THEN ARRAY[
            pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', v_how, v_name || '_new'),
            pg_catalog.format(v_create, v_name || '_new'),
            pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', v_how, v_name),
            pg_catalog.format('ALTER INDEX memory.%I RENAME TO %I', v_name || '_new', v_name)]
        -- with the indexes of the simulation's clump builds (memory._clump_build), whose rows
        -- went with the simulation or go with memory._clump_build(..., 'drop')
        WHEN 'drop' THEN ARRAY[pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', v_how, v_name)]
             || ARRAY(SELECT pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', v_how, c.relname)
                        FROM pg_catalog.pg_class AS c
                       WHERE c.relnamespace = 'memory'::pg_catalog.regnamespace AND c.relkind = 'i'
                         AND c.relname ~ ('^search_points_ann_' || p_sim_no::text || '_[0-9]+$')
                       ORDER BY c.relname)
        WHEN 'keep' THEN ARRAY[]::text[]
    END;
    IF v_stmts IS NULL THEN
        RAISE EXCEPTION 'unknown index action %', pg_catalog.left(p_action, 200)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'one of build, rebuild, drop, keep (the action column of memory.ann_plan())';
    END IF;
    FOREACH v_stmt IN ARRAY v_stmts LOOP
        IF p_run THEN
            EXECUTE v_stmt;
        END IF;
        RETURN NEXT v_stmt;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION memory.ann_index(bigint, text, integer, integer, boolean) IS 'Build, rebuild or drop a simulation''s HNSW index by its number (SECURITY DEFINER: only the owner may index); memory_admin';
GRANT EXECUTE ON FUNCTION memory.ann_index(bigint, text, integer, integer, boolean) TO memory_admin;
