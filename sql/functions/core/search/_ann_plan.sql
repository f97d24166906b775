-- The plan of memory.ann_plan() (p_kind 'episodes': the indexes over memory.episodes),
-- memory.ann_plan_facts() ('facts': over memory.edges) and memory.ann_plan_entities()
-- ('entities': over memory.nodes, the index of the name vectors standing for the pair of
-- indexes memory._ann_statements builds and drops together): every simulation with at least
-- p_min_rows embedded rows of the kind and its index (action 'build' when missing or left
-- invalid by an interrupted build, 'rebuild' when built with other parameters than m = p_m,
-- ef_construction = p_ef_construction, 'keep' otherwise), and every per-simulation index of
-- the kind whose simulation is gone or has fallen below p_min_rows ('drop'). Simulations by
-- their opaque number only. The caller has checked that it is an administrator.
CREATE OR REPLACE FUNCTION memory._ann_plan(p_kind text, p_min_rows integer, p_m integer, p_ef_construction integer)
RETURNS TABLE (sim_no bigint, index_name text, embedded bigint, action text)
LANGUAGE sql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    WITH kind AS (
        SELECT CASE k.kind WHEN 'facts' THEN 'memory.edges'::pg_catalog.regclass
                           WHEN 'entities' THEN 'memory.nodes'::pg_catalog.regclass
                           ELSE 'memory.episodes'::pg_catalog.regclass END AS tbl,
               CASE k.kind WHEN 'facts' THEN '^facts_ann_[0-9]+$' WHEN 'entities' THEN '^entities_ann_[0-9]+(_summary)?$'
                           ELSE '^episodes_ann_[0-9]+$' END AS pattern,
               CASE k.kind WHEN 'entities' THEN 2 ELSE 1 END AS parts
          FROM (SELECT memory._one_of('indexed kind', p_kind, ARRAY['episodes', 'facts', 'entities']) AS kind) AS k),
    wanted AS (
        SELECT w.sim_no, w.embedded,
               CASE p_kind WHEN 'facts' THEN memory._facts_ann_index_name(w.sim_no)
                           WHEN 'entities' THEN memory._entities_ann_index_name(w.sim_no)
                           ELSE memory._ann_index_name(w.sim_no) END AS index_name
          FROM memory._ann_wanted(p_min_rows, p_kind) AS w),
    existing AS (
        -- each simulation's index, or its pair (the entities': an index and its _summary,
        -- judged together, so that a pair left half built, half invalid or half rebuilt by an
        -- interrupted run is built or rebuilt whole, and a lone half of a gone simulation dropped)
        SELECT pg_catalog.regexp_replace(c.relname::text, '_summary$', '') AS index_name,
               pg_catalog.count(*) AS parts, pg_catalog.bool_and(i.indisvalid) AS valid,
               pg_catalog.bool_and(ARRAY(SELECT o FROM pg_catalog.unnest(COALESCE(c.reloptions, '{}')) AS o ORDER BY o)
                                   = ARRAY['ef_construction=' || p_ef_construction, 'm=' || p_m]) AS same
          FROM kind AS k
          JOIN pg_catalog.pg_index AS i ON i.indrelid = k.tbl
          JOIN pg_catalog.pg_class AS c ON c.oid = i.indexrelid
         WHERE c.relname ~ k.pattern
         GROUP BY 1)
    SELECT w.sim_no, w.index_name, w.embedded,
           CASE WHEN x.index_name IS NULL OR NOT x.valid OR x.parts < (SELECT k.parts FROM kind AS k) THEN 'build'
                WHEN NOT x.same THEN 'rebuild'
                ELSE 'keep' END
      FROM wanted AS w
      LEFT JOIN existing AS x ON x.index_name = w.index_name
    UNION ALL
    SELECT pg_catalog.substring(x.index_name, '[0-9]+$')::bigint, x.index_name, 0::bigint, 'drop'
      FROM existing AS x
     WHERE x.index_name NOT IN (SELECT w.index_name FROM wanted AS w)
    UNION ALL
    -- a bridge (memory._ann_ivf_index_name) an interrupted run left, of a simulation with no
    -- index of its own to build, keep or drop: its 'drop' drops the bridge too
    SELECT b.sim_no, memory._ann_index_name(b.sim_no), 0::bigint, 'drop'
      FROM (SELECT pg_catalog.substring(c.relname::text, '[0-9]+$')::bigint AS sim_no
              FROM kind AS k
              JOIN pg_catalog.pg_index AS i ON i.indrelid = k.tbl
              JOIN pg_catalog.pg_class AS c ON c.oid = i.indexrelid
             WHERE k.tbl = 'memory.episodes'::pg_catalog.regclass AND c.relname ~ '^episodes_ivf_[0-9]+$') AS b
     WHERE memory._ann_index_name(b.sim_no) NOT IN (SELECT w.index_name FROM wanted AS w)
       AND memory._ann_index_name(b.sim_no) NOT IN (SELECT x.index_name FROM existing AS x)
     ORDER BY 3 DESC, 1;
$fn$;

COMMENT ON FUNCTION memory._ann_plan(text, integer, integer, integer) IS 'Internal: the per-simulation HNSW indexes of a kind (episodes, facts or entities) to build, rebuild, keep or drop; memory_admin';
GRANT EXECUTE ON FUNCTION memory._ann_plan(text, integer, integer, integer) TO memory_admin;
