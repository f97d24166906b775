-- Zep's graph.episode.get_by_graph_id: the last p_lastn episodes added to a graph (10 by
-- default, 1..memory._page_rows), oldest first, as Zep's API sends them.
CREATE OR REPLACE FUNCTION memory.zep_graph_episodes(p_tenant_id uuid, p_graph_id text, p_lastn integer DEFAULT NULL)
RETURNS SETOF jsonb
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._zep_episode(pg_catalog.to_jsonb(l.z))
      FROM (SELECT z FROM memory.zep_episodes AS z
             WHERE z.tenant_id = p_tenant_id AND z.simulation_id = memory._zep_simulation(p_tenant_id, p_graph_id)
             ORDER BY z.sequence_index DESC
             LIMIT memory._page_rows(p_lastn, 10)) AS l (z)
     ORDER BY (l.z).sequence_index;
$fn$;

COMMENT ON FUNCTION memory.zep_graph_episodes(uuid, text, integer) IS 'Zep graph.episode.get_by_graph_id: a graph''s last episodes, oldest first';
GRANT EXECUTE ON FUNCTION memory.zep_graph_episodes(uuid, text, integer) TO memory_reader;
