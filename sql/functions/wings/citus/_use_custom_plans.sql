-- On a Citus cluster, make the functions that ask for generic plans (memory.neighbors,
-- memory.facts, memory._search_words, memory._recall_graph, memory._search_facts and the
-- index searches memory._search_episodes_ann, _search_facts_ann, _search_nodes_ann,
-- _clump_search:
-- plan_cache_mode = force_generic_plan, which saves the planning of a small walk, a node's
-- facts, a words search, a facts search or an index search on one node; the index searches
-- then run their statement with USING instead of preparing it) plan each call: a generic plan leaves
-- the tenant a parameter, and Citus cannot route a statement over a distributed table whose
-- distribution column is compared with a parameter it does not know ("could not create
-- distributed plan"). Returns the functions
-- changed; on one node, or run again, none. Run by the deploy (sql/finalize/cluster_plans.sql,
-- in the transaction that re-creates the functions) and by distribute (step 4c), as the owner
-- of the functions; ALTER FUNCTION reaches every node.
CREATE OR REPLACE FUNCTION memory._use_custom_plans() RETURNS SETOF regprocedure
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_fn regprocedure;
BEGIN
    IF NOT memory._on_cluster() THEN
        RETURN;
    END IF;
    FOR v_fn IN
        SELECT p.oid::regprocedure
          FROM pg_catalog.pg_proc AS p
         WHERE p.pronamespace = 'memory'::pg_catalog.regnamespace
           AND 'plan_cache_mode=force_generic_plan' = ANY (p.proconfig)
         ORDER BY p.proname, p.oid
    LOOP
        EXECUTE pg_catalog.format('ALTER FUNCTION %s RESET plan_cache_mode', v_fn);
        RETURN NEXT v_fn;
    END LOOP;
END
$fn$;

COMMENT ON FUNCTION memory._use_custom_plans() IS 'Internal: on a Citus cluster, the functions asking for generic plans plan each call instead (a generic plan cannot be routed); returns those changed';
