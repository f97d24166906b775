-- What is wrong with an episode as Zep's API sends it (EpisodeData: data, its type,
-- created_at, source_description), or NULL: the one list of checks memory.zep_add_episodes
-- applies to each episode and memory._zep_batch_item_problem to each batch item before it is
-- kept. p_type_field names the field of the type ("type" in EpisodeData, "data_type" in a
-- batch item).
CREATE OR REPLACE FUNCTION memory._zep_episode_problem(p_episode jsonb, p_type_field text DEFAULT 'type')
RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE
        WHEN pg_catalog.jsonb_typeof(p_episode) IS DISTINCT FROM 'object' THEN 'is not an object'
        WHEN pg_catalog.jsonb_typeof(p_episode -> 'data') IS DISTINCT FROM 'string'
          OR pg_catalog.btrim(p_episode ->> 'data') = '' THEN '"data" must be a non-empty string'
        WHEN pg_catalog.octet_length(p_episode ->> 'data') > memory._limit('string_bytes') THEN
            pg_catalog.format('"data" is %s bytes, more than %s', pg_catalog.octet_length(p_episode ->> 'data'),
                              memory._limit('string_bytes'))
        WHEN COALESCE(p_episode ->> p_type_field, 'text') NOT IN ('text', 'json', 'message') THEN
            pg_catalog.format('"%s" %s is not one of text, json, message', p_type_field,
                              memory._quote(p_episode ->> p_type_field))
        WHEN p_episode ->> p_type_field = 'json' AND NOT pg_catalog.pg_input_is_valid(p_episode ->> 'data', 'jsonb') THEN
            pg_catalog.format('"data" of %s json is not JSON', p_type_field)
        WHEN pg_catalog.jsonb_typeof(p_episode -> 'created_at') NOT IN ('string', 'null') THEN '"created_at" is not a time'
        WHEN pg_catalog.jsonb_typeof(p_episode -> 'created_at') = 'string'
         AND NOT pg_catalog.pg_input_is_valid(p_episode ->> 'created_at', 'timestamptz') THEN
            pg_catalog.format('"created_at" %s is not a time', memory._quote(p_episode ->> 'created_at'))
        WHEN pg_catalog.jsonb_typeof(p_episode -> 'source_description') NOT IN ('string', 'null') THEN
            '"source_description" must be a string'
        WHEN pg_catalog.octet_length(p_episode ->> 'source_description') > memory._limit('string_bytes') THEN
            '"source_description" is too long'
    END;
$fn$;

COMMENT ON FUNCTION memory._zep_episode_problem(jsonb, text) IS 'Internal: what is wrong with an episode as Zep''s API sends it, or NULL';
GRANT EXECUTE ON FUNCTION memory._zep_episode_problem(jsonb, text) TO memory_reader;
