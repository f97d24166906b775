-- The record kinds of a simulation, in the order a promote writes them (nodes before the
-- edges that reference them), with what the write path needs to know of each that the
-- catalog does not say: the staged table of the kind, the batch argument of its upsert
-- function and the fields it accepts (kinds of memory._field_problem), the item field that
-- holds the row's id and the column it goes to, the fields that key a row in a batch, and
-- the defaults of item fields. Columns, types, NOT NULL, keys and column defaults are read
-- from the tables themselves (memory._kind_columns): a column added to a kind's table and
-- its staged table is written by every path without another change. The kinds of a
-- MiroFish report (V0014) follow the graph and the actions; memory.prediction_outcomes is
-- not a kind (no import may write it; see V0014).
CREATE OR REPLACE FUNCTION memory._record_kinds() RETURNS SETOF memory.record_kind
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT k.kind, k.item, k.ord, pg_catalog.to_regclass('memory.' || k.kind),
           pg_catalog.to_regclass('memory.staged_' || k.kind), 'p_' || k.kind, k.batch_spec,
           k.id_column, k.batch_key, k.item_defaults
      FROM (VALUES
        ('nodes', 'node', 1,
         '{"id": "id", "name": "text!", "type": "label", "labels": "text[]", "summary": "text",
           "attributes": "object", "embedding": "vector", "embedding_model": "text",
           "summary_embedding": "vector"}'::jsonb,
         'node_id'::name, ARRAY['id'], '{"type": "Entity"}'::jsonb),
        ('edges', 'edge', 2,
         '{"id": "id", "type": "label!", "source_id": "id", "target_id": "id", "fact": "text",
           "attributes": "object", "valid_at": "timestamp", "invalid_at": "timestamp",
           "learned_at": "timestamp", "expired_at": "timestamp",
           "embedding": "vector", "embedding_model": "text"}',
         'edge_id', ARRAY['id'], '{}'),
        ('episodes', 'episode', 3,
         '{"id": "id", "agent_id": "int", "agent_name": "text", "platform": "text", "round": "int",
           "action_type": "text!", "content": "text", "metadata": "object",
           "occurred_at": "timestamp", "embedding": "vector", "embedding_model": "text"}',
         'episode_id', ARRAY['id'], '{}'),
        ('profiles', 'profile', 4,
         '{"agent_id": "int!", "platform": "label!", "name": "text", "username": "text",
           "bio": "text", "persona": "text", "attributes": "object"}',
         NULL, ARRAY['platform', 'agent_id'], '{}'),
        -- A report and its parts (V0014): written by imports only, so their batch specs
        -- list no upsert fields; their keys are those of their tables.
        ('reports', 'report', 5, '{}', 'report_id', ARRAY['id'], '{}'),
        ('report_sections', 'report section', 6, '{}', NULL, ARRAY['report_id', 'section_index'], '{}'),
        ('report_chunks', 'report chunk', 7, '{}', 'chunk_id', ARRAY['id'], '{}'),
        ('report_log', 'report log line', 8, '{}', NULL, ARRAY['report_id', 'line_no'], '{}'),
        ('predictions', 'prediction', 9,
         '{"id": "id", "report_id": "text", "section_index": "int", "claim": "text!",
           "horizon": "text", "confidence": "fraction", "metadata": "object"}',
         'prediction_id', ARRAY['id'], '{}'))
        AS k(kind, item, ord, batch_spec, id_column, batch_key, item_defaults)
     ORDER BY k.ord
$fn$;

COMMENT ON FUNCTION memory._record_kinds() IS 'Internal: the record kinds (nodes, edges, episodes, profiles, reports and their parts, predictions) and what their write path needs';
GRANT EXECUTE ON FUNCTION memory._record_kinds() TO memory_reader, memory_writer;
