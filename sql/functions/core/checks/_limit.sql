-- The caps on the work one call may ask for, each defined here once and read by the checks
-- that enforce them (memory._check_limit refuses a value over one with 54000):
--   batch_rows     items in one upsert batch (p_nodes, p_edges, p_episodes, p_profiles)
--   batch_bytes    size of one upsert batch as jsonb (pg_column_size): 64 MB
--   object_bytes   size of one JSON object: an item's attributes or metadata, a simulation's
--                  metadata, begin_import's p_declared and p_metadata: 1 MB
--   string_bytes   bytes of one string: an id, name, summary, content, fact: 1 MB
--   list_elements  elements of a list argument or field (neighbors' p_edge_types, labels)
--   quoted_chars   characters of a bad value an error message quotes (memory._quote)
--   cache_hashes   content hashes one call of memory.cached_vectors / cache_vectors takes
--   word_candidates rows memory.search_words ranks (each is looked up for every word of the
--                  question), and the number of rows holding a word
--                  or names holding a trigram beyond which it counts as common
--   question_bytes bytes of a question's text: memory.recall, search_words and
--                  match_entities read every word and name in it: 4 KB
--   name_comparisons names one call compares with a text (memory._name_candidates: each
--                  comparison reads a run of the text; the most likely names go first)
--   health_sample  queries of memory.health's sampled recall check, a simulation (each
--                  an exact scan of the simulation's episodes)
-- A batch over its limits is split by the caller; the importer's batches stay far below.
CREATE OR REPLACE FUNCTION memory._limit(p_name text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_limit bigint := CASE p_name
        WHEN 'batch_rows' THEN 10000
        WHEN 'batch_bytes' THEN 64 * 1024 * 1024
        WHEN 'object_bytes' THEN 1024 * 1024
        WHEN 'string_bytes' THEN 1024 * 1024
        WHEN 'list_elements' THEN 1000
        WHEN 'quoted_chars' THEN 200
        WHEN 'cache_hashes' THEN 100000
        WHEN 'word_candidates' THEN 300
        WHEN 'question_bytes' THEN 4096
        WHEN 'name_comparisons' THEN 1000
        WHEN 'health_sample' THEN 100 END;
BEGIN
    RETURN COALESCE(v_limit, memory._one_of('limit', p_name, '{batch_rows, batch_bytes, object_bytes, string_bytes, list_elements, quoted_chars, cache_hashes, word_candidates, question_bytes, name_comparisons, health_sample}')::bigint);
END
$fn$;

COMMENT ON FUNCTION memory._limit(text) IS 'Internal: the cap of a named limit (batch_rows, batch_bytes, object_bytes, string_bytes, list_elements, quoted_chars, cache_hashes, word_candidates, question_bytes, name_comparisons, health_sample)';
GRANT EXECUTE ON FUNCTION memory._limit(text) TO memory_reader, memory_writer, memory_admin;
