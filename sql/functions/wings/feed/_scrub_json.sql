-- A JSON document (a report's metadata, a report log line) with memory._scrub_text applied
-- to every string value, at any depth; keys and the document's shape stay. Walked value by
-- value, not as JSON text: a replace in the text could begin inside an escape sequence.
CREATE OR REPLACE FUNCTION memory._scrub_json(p_doc jsonb, p_texts text[]) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    RETURN CASE pg_catalog.jsonb_typeof(p_doc)
        WHEN 'string' THEN pg_catalog.to_jsonb(memory._scrub_text(p_doc OPERATOR(pg_catalog.#>>) '{}', p_texts))
        WHEN 'object' THEN COALESCE((SELECT pg_catalog.jsonb_object_agg(e.key, memory._scrub_json(e.value, p_texts))
                                       FROM pg_catalog.jsonb_each(p_doc) AS e), '{}'::jsonb)
        WHEN 'array' THEN COALESCE((SELECT pg_catalog.jsonb_agg(memory._scrub_json(e.value, p_texts) ORDER BY e.n)
                                      FROM pg_catalog.jsonb_array_elements(p_doc) WITH ORDINALITY AS e (value, n)),
                                   '[]'::jsonb)
        ELSE p_doc END;
END
$fn$;

COMMENT ON FUNCTION memory._scrub_json(jsonb, text[]) IS 'Internal: a JSON document with the given texts replaced by the forgotten marker in every string value';
GRANT EXECUTE ON FUNCTION memory._scrub_json(jsonb, text[]) TO memory_writer;
