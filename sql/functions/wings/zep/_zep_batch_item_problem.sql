-- What is wrong with an item added to a batch (Zep's BatchAddItem), or NULL: only graph
-- episodes are served (thread messages are not: threads are not served), with the fields
-- memory.zep_add_episodes takes (data, data_type as its type, created_at, source_description)
-- and metadata (the episode's own checks memory._zep_episode_problem's). Checked when the item
-- is added, so a draft holds only items that process.
CREATE OR REPLACE FUNCTION memory._zep_batch_item_problem(p_item jsonb) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE
        WHEN pg_catalog.jsonb_typeof(p_item) IS DISTINCT FROM 'object' THEN 'is not an object'
        WHEN p_item ->> 'type' = 'thread_message' THEN
            'thread_message items are not served (threads are not): add graph_episode items'
        WHEN p_item ->> 'type' IS DISTINCT FROM 'graph_episode' THEN
            pg_catalog.format('"type" %s is not graph_episode', COALESCE(memory._quote(p_item ->> 'type'), 'null'))
        WHEN pg_catalog.jsonb_typeof(p_item -> 'user_id') = 'string' THEN
            'user graphs are not served: add to a graph by graph_id'
        WHEN pg_catalog.jsonb_typeof(p_item -> 'graph_id') IS DISTINCT FROM 'string'
          OR pg_catalog.btrim(p_item ->> 'graph_id') = '' THEN '"graph_id" must name a graph'
        WHEN pg_catalog.jsonb_typeof(p_item -> 'metadata') NOT IN ('object', 'null') THEN '"metadata" must be an object'
        ELSE memory._zep_episode_problem(p_item, 'data_type')
    END;
$fn$;

COMMENT ON FUNCTION memory._zep_batch_item_problem(jsonb) IS 'Internal: what is wrong with an item added to a Zep batch, or NULL';
GRANT EXECUTE ON FUNCTION memory._zep_batch_item_problem(jsonb) TO memory_reader;
