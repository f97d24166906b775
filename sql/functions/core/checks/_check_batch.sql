-- Validate a jsonb batch before anything of it is written: NULL (22004), not an array, an
-- item that is not an object, a field of the wrong kind, or the same key twice (22023), each
-- naming the argument and the 0-based index of the item. A batch over the caps of
-- memory._limit() is refused with 54000 before anything of it is read: more than batch_rows
-- items, more than batch_bytes of jsonb, a string field over string_bytes, an object field
-- over object_bytes, a list field over list_elements (naming the item and the field).
CREATE OR REPLACE FUNCTION memory._check_batch(p_arg text, p_items jsonb, p_spec jsonb, p_key text[]) RETURNS void
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_index   bigint;
    v_other   bigint;
    v_field   text;
    v_problem text;
    v_limit   text;
    v_size    bigint;
    v_caps    jsonb := pg_catalog.jsonb_build_object(
                  'string_bytes', memory._limit('string_bytes'),
                  'object_bytes', memory._limit('object_bytes'),
                  'list_elements', memory._limit('list_elements'));
BEGIN
    PERFORM memory._not_null(p_items, p_arg, 'pass a JSON array of items ([] for none)');
    IF pg_catalog.jsonb_typeof(p_items) <> 'array' THEN
        RAISE EXCEPTION '% must be a JSON array, not %', p_arg, pg_catalog.jsonb_typeof(p_items)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a JSON array of items ([] for none)';
    END IF;
    PERFORM memory._check_limit('batch_rows', p_arg || ' (items)', pg_catalog.jsonb_array_length(p_items));
    PERFORM memory._check_limit('batch_bytes', p_arg || ' (bytes)', pg_catalog.pg_column_size(p_items));

    SELECT t.ord - 1, pg_catalog.jsonb_typeof(t.item) INTO v_index, v_problem
      FROM pg_catalog.jsonb_array_elements(p_items) WITH ORDINALITY AS t(item, ord)
     WHERE pg_catalog.jsonb_typeof(t.item) <> 'object'
     ORDER BY t.ord
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '%[%] must be a JSON object, not %', p_arg, v_index, v_problem
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'nothing of the batch was written; fix the item and send the batch again';
    END IF;

    -- Each field is judged once (MATERIALIZED keeps the planner from repeating the call in
    -- the filter): its size against its cap (any string, any object, a text[] list), then
    -- its kind.
    WITH judged AS MATERIALIZED (
        SELECT t.ord, f.key, z.cap, z.size,
               memory._field_problem(t.item -> f.key, f.value) AS problem
          FROM pg_catalog.jsonb_array_elements(p_items) WITH ORDINALITY AS t(item, ord)
         CROSS JOIN pg_catalog.jsonb_each_text(p_spec) AS f(key, value)
         CROSS JOIN LATERAL (
             SELECT CASE pg_catalog.jsonb_typeof(t.item -> f.key)
                        WHEN 'string' THEN 'string_bytes' WHEN 'object' THEN 'object_bytes'
                        WHEN 'array' THEN CASE WHEN f.value = 'text[]' THEN 'list_elements' END END AS cap,
                    CASE pg_catalog.jsonb_typeof(t.item -> f.key)
                        WHEN 'string' THEN pg_catalog.octet_length(t.item ->> f.key)::bigint
                        WHEN 'object' THEN pg_catalog.pg_column_size(t.item -> f.key)::bigint
                        WHEN 'array' THEN pg_catalog.jsonb_array_length(t.item -> f.key)::bigint END AS size) AS z)
    SELECT j.ord - 1, j.key, j.problem, j.cap, j.size
      INTO v_index, v_field, v_problem, v_limit, v_size
      FROM judged AS j
     WHERE j.problem IS NOT NULL OR j.size > (v_caps ->> j.cap)::bigint
     ORDER BY j.ord, j.key
     LIMIT 1;
    IF FOUND AND v_size > (v_caps ->> v_limit)::bigint THEN
        PERFORM memory._check_limit(v_limit, pg_catalog.format('%s[%s].%s', p_arg, v_index, v_field), v_size);
    END IF;
    IF FOUND THEN
        RAISE EXCEPTION '%[%].%: %', p_arg, v_index, v_field, v_problem
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'nothing of the batch was written; fix the item and send the batch again';
    END IF;

    SELECT d.key, d.first_index, d.second_index INTO v_problem, v_index, v_other
      FROM (SELECT k.key,
                   pg_catalog.min(k.ord) - 1 AS first_index,
                   (pg_catalog.array_agg(k.ord ORDER BY k.ord))[2] - 1 AS second_index
              FROM (SELECT t.ord,
                           (SELECT pg_catalog.string_agg(t.item ->> c.col, '/' ORDER BY c.pos)
                              FROM pg_catalog.unnest(p_key) WITH ORDINALITY AS c(col, pos)) AS key
                      FROM pg_catalog.jsonb_array_elements(p_items) WITH ORDINALITY AS t(item, ord)) AS k
             GROUP BY k.key
            HAVING pg_catalog.count(*) > 1) AS d
     ORDER BY d.first_index
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '%: % % appears twice, at items % and %', p_arg,
                pg_catalog.array_to_string(p_key, '/'), memory._quote(v_problem), v_index, v_other
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'each item of a batch must have its own key; nothing of the batch was written';
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._check_batch(text, jsonb, jsonb, text[]) IS 'Internal: validate a jsonb batch (22004, 22023 naming the item index) before any write';
GRANT EXECUTE ON FUNCTION memory._check_batch(text, jsonb, jsonb, text[]) TO memory_writer;
