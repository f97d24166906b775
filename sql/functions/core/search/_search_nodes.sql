-- memory.search_nodes' ranking, for a caller that has entered the tenant and checked its
-- arguments: through the simulation's pair of entity indexes where both exist (V0035,
-- memory._search_nodes_ann: each index searched p_breadth wide, NULL: as broadly as
-- memory._ann_breadth says for its size; the candidates ranked by the exact similarity of the
-- full vectors), and by an exact scan of the simulation's entities otherwise, or when the
-- indexes give fewer than p_top_k (a rare p_type). memory.recall's entities arm passes a
-- breadth of its own. The indexes answer faster than the exact scan at the same recall
-- (bench/README.md).
CREATE OR REPLACE FUNCTION memory._search_nodes(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer,
    p_type text,
    p_by text,
    p_breadth integer)
RETURNS TABLE (node_id text, name text, type text, summary text, similarity double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_k      integer := memory._top_k(p_top_k);
    v_sim_no bigint;
    v_rows   real;
BEGIN
    SELECT s.sim_no INTO v_sim_no FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    -- the pair's size as the catalog holds it, when both of its indexes exist and are valid
    -- (an index left invalid by an interrupted CREATE INDEX CONCURRENTLY is no path)
    SELECT c.reltuples INTO v_rows
      FROM pg_catalog.pg_class AS c JOIN pg_catalog.pg_index AS i ON i.indexrelid = c.oid
     WHERE c.oid = pg_catalog.to_regclass('memory.' || memory._entities_ann_index_name(v_sim_no)) AND i.indisvalid
       AND EXISTS (SELECT 1 FROM pg_catalog.pg_index AS j
                    WHERE j.indexrelid = pg_catalog.to_regclass('memory.' || memory._entities_ann_index_name(v_sim_no) || '_summary')
                      AND j.indisvalid);
    RETURN QUERY
    WITH ann AS MATERIALIZED (
        SELECT a.* FROM memory._search_nodes_ann(
            p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_sim_no => v_sim_no,
            p_query => p_query, p_top_k => v_k, p_type => p_type, p_by => p_by,
            p_index_rows => v_rows, p_breadth => p_breadth) AS a
         WHERE v_rows IS NOT NULL
    ), found AS MATERIALIZED (
        SELECT pg_catalog.count(*) AS n FROM ann
    ), exact AS (
        SELECT n.node_id, n.name, n.type, n.summary, n.similarity
          FROM (SELECT n.node_id, n.name, n.type, n.summary,
                       1 - CASE p_by
                               WHEN 'name' THEN n.embedding OPERATOR(public.<=>) p_query::public.vector(384)
                               WHEN 'summary' THEN n.summary_embedding OPERATOR(public.<=>) p_query::public.vector(384)
                               WHEN 'meaning' THEN COALESCE(n.summary_embedding OPERATOR(public.<=>) p_query::public.vector(384),
                                                            n.embedding OPERATOR(public.<=>) p_query::public.vector(384))
                               ELSE LEAST(n.embedding OPERATOR(public.<=>) p_query::public.vector(384),
                                          n.summary_embedding OPERATOR(public.<=>) p_query::public.vector(384)) END
                       AS similarity
                  FROM memory.nodes AS n
                 WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
                   AND (p_type IS NULL OR n.type = p_type)
                -- (OFFSET 0: flattened, the similarity was computed twice a row, for the
                -- filter and for the order)
                OFFSET 0) AS n
         WHERE n.similarity IS NOT NULL AND (SELECT c.n FROM found AS c) < v_k
         ORDER BY n.similarity DESC, n.node_id
         LIMIT v_k
    )
    SELECT * FROM ann WHERE (SELECT c.n FROM found AS c) >= v_k
    UNION ALL
    SELECT * FROM exact;
END
$fn$;

COMMENT ON FUNCTION memory._search_nodes(uuid, uuid, public.vector, integer, text, text, integer) IS 'Internal: memory.search_nodes'' ranking (through the entity indexes or exactly), with the breadth of the index searches optionally given';
GRANT EXECUTE ON FUNCTION memory._search_nodes(uuid, uuid, public.vector, integer, text, text, integer) TO memory_reader;
