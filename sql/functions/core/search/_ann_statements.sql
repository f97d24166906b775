-- The statements of one action of memory.ann_plan() on the index of the simulation
-- numbered p_sim_no over p_table (memory.episodes; on a Citus worker the tenant's shard of
-- it, memory.ann_index_tenant; memory.edges, the facts' index of memory.ann_plan_facts(); or
-- memory.nodes, the entities' pair of memory.ann_plan_entities(), one index over the name
-- vectors and one over the summary vectors, each action on both): 'build' (drop an invalid
-- leftover, create), 'rebuild'
-- (create beside the old index, drop it, take its name), 'drop' (also the indexes of its
-- clump builds, memory._clump_build), 'keep' (none). The index: HNSW over half-precision
-- vectors, m = p_m, ef_construction = p_ef_construction, WHERE sim_no = p_sim_no, named by
-- memory._ann_index_name() in schema memory (where memory.search_episodes looks for it), or
-- over memory.edges by memory._facts_ann_index_name() (memory.search_facts), or over
-- memory.nodes by memory._entities_ann_index_name() and that name with _summary
-- (memory.search_nodes).
-- p_concurrently: CREATE / DROP INDEX CONCURRENTLY, each statement to run on its own
-- outside a transaction (`swarm-memory index`, swarm_memory.ann). The plain form is for a
-- Citus worker's shard (memory.ann_index_tenant) only: on one node a plain CREATE or DROP
-- INDEX holds the table every tenant writes (SHARE for a build, ACCESS EXCLUSIVE for a drop)
-- until the transaction ends, so there any action with a statement to run is refused (55000,
-- naming `swarm-memory index`). NULL number or action 22004, unknown action 22023. Only
-- numbers and quoted names go into the statements.
-- The bridge (memory.episodes only, CONCURRENTLY only, where each statement commits on its
-- own): a 'build' first creates the simulation's IVFFlat index (memory._ann_ivf_index_name:
-- 100 lists, built many times faster than an HNSW index) and ends by dropping it, so that
-- memory._search_episodes answers through it, at close to the HNSW index's recall, while
-- the HNSW index builds, instead of scanning the
-- simulation exactly. Every other action on memory.episodes starts by dropping a bridge an
-- interrupted run left ('keep' too, when there is one; memory._ann_plan plans a 'drop' for
-- a bridge whose simulation has no index to keep). In one transaction (p_concurrently
-- false: memory.ann_index_tenant on a Citus worker) no other session could see a bridge, so
-- none is built there. A Citus shard's table has none.
CREATE OR REPLACE FUNCTION memory._ann_statements(p_sim_no bigint, p_action text, p_m integer,
                                                  p_ef_construction integer, p_concurrently boolean,
                                                  p_table regclass)
RETURNS text[]
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_facts    boolean := p_table = 'memory.edges'::pg_catalog.regclass;
    v_entities boolean := p_table = 'memory.nodes'::pg_catalog.regclass;
    v_name     text := CASE WHEN v_facts THEN memory._facts_ann_index_name(p_sim_no)
                            WHEN v_entities THEN memory._entities_ann_index_name(p_sim_no)
                            ELSE memory._ann_index_name(p_sim_no) END;
    v_how      text := CASE WHEN p_concurrently THEN 'CONCURRENTLY ' ELSE '' END;
    v_episodes boolean := p_table = 'memory.episodes'::pg_catalog.regclass;
    v_bridge   text := memory._ann_ivf_index_name(p_sim_no);
    v_unbridge text := pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', v_how, v_bridge);
    v_create   text;
    v_stmts    text[];
BEGIN
    IF p_sim_no IS NULL OR p_action IS NULL OR p_concurrently IS NULL OR p_table IS NULL THEN
        RAISE EXCEPTION 'the simulation number, the action and the mode of an index build must not be NULL'
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'take a row of memory.ann_plan(): its sim_no and action';
    END IF;
    v_create := pg_catalog.format(
        'CREATE INDEX %s%%I ON %s USING hnsw ((%%I::public.halfvec(384)) public.halfvec_cosine_ops)'
        ' WITH (m = %s, ef_construction = %s) WHERE sim_no = %s',
        v_how, p_table, COALESCE(p_m, 32), COALESCE(p_ef_construction, 128), p_sim_no);
    IF v_entities AND p_action IS DISTINCT FROM 'keep' THEN
        -- the pair: the statements of the name vectors' index, then those of the summaries'
        -- (the same action on an index of the same parameters, named with _summary)
        v_stmts := memory._ann_statement_list(p_action, v_how, v_create, v_name, 'embedding')
                   || memory._ann_statement_list(p_action, v_how, v_create, v_name || '_summary', 'summary_embedding');
    ELSE
        v_stmts := memory._ann_statement_list(p_action, v_how, v_create, v_name, 'embedding');
    END IF;
    IF v_stmts IS NOT NULL AND p_action = 'drop' AND NOT v_facts AND NOT v_entities THEN
        -- with the indexes of the simulation's clump builds (memory._clump_build), whose rows
        -- went with the simulation or go with memory._clump_build(..., 'drop')
        v_stmts := v_stmts || ARRAY(
            SELECT pg_catalog.format('DROP INDEX %sIF EXISTS memory.%I', v_how, c.relname)
              FROM pg_catalog.pg_class AS c
             WHERE c.relnamespace = 'memory'::pg_catalog.regnamespace AND c.relkind = 'i'
               AND c.relname ~ ('^search_points_ann_' || p_sim_no::text || '_[0-9]+$')
             ORDER BY c.relname);
    END IF;
    IF v_stmts IS NOT NULL AND v_episodes THEN
        IF p_action = 'build' AND p_concurrently THEN
            -- the bridge: built first, searched while the HNSW index builds, dropped after it
            v_stmts := ARRAY[v_unbridge,
                             pg_catalog.format('CREATE INDEX %s%I ON memory.episodes USING ivfflat'
                                               ' ((embedding::public.halfvec(384)) public.halfvec_cosine_ops)'
                                               ' WITH (lists = 100) WHERE sim_no = %s AND embedding IS NOT NULL',
                                               v_how, v_bridge, p_sim_no)]
                       || v_stmts
                       || v_unbridge;
        ELSIF p_action <> 'keep' OR pg_catalog.to_regclass('memory.' || v_bridge) IS NOT NULL THEN
            -- a bridge an interrupted run left (for 'keep' only when there is one): dropped
            -- first, so that a build in one transaction does not end waiting for its lock
            v_stmts := v_unbridge || v_stmts;
        END IF;
    END IF;
    IF v_stmts IS NULL THEN
        RAISE EXCEPTION 'unknown index action %', pg_catalog.left(p_action, 200)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'one of build, rebuild, drop, keep (the action column of memory.ann_plan())';
    END IF;
    IF NOT p_concurrently AND pg_catalog.cardinality(v_stmts) > 0 AND NOT memory._on_cluster() THEN
        RAISE EXCEPTION 'index action % of simulation % in one transaction would hold % against every tenant''s writes until it ends',
                        p_action, p_sim_no, p_table
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'run `swarm-memory index` (it builds and drops CONCURRENTLY, outside a transaction, as memory_owner)';
    END IF;
    RETURN v_stmts;
END
$fn$;

COMMENT ON FUNCTION memory._ann_statements(bigint, text, integer, integer, boolean, regclass) IS 'Internal: the statements of an index action of memory.ann_plan(), ann_plan_facts() or ann_plan_entities() on a simulation''s HNSW index over memory.episodes (or a shard of it; with the IVFFlat bridge built before a concurrent build and dropped after it), memory.edges or memory.nodes (a pair); the plain (one-transaction) form only on a Citus cluster';
GRANT EXECUTE ON FUNCTION memory._ann_statements(bigint, text, integer, integer, boolean, regclass) TO memory_admin;
