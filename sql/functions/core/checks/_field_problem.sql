-- What is wrong with one field of a batch item, or NULL when nothing is.
-- Kinds: id (required non-empty string), text! (required string), text, label! and label
-- (a string of at most memory._label_max() characters: types and platforms, which are indexed), text[],
-- object, int! (required integer), int, fraction (a number from 0 to 1: a prediction's
-- confidence, as memory.predictions' check has it), timestamp (ISO 8601), vector (384 numbers that
-- make a comparable vector as stored: memory._vector_problem).
-- A timestamp may not be one of PostgreSQL's relative words (now, today, tomorrow,
-- yesterday): their value depends on when the call runs, so replaying a batch would change
-- it. A vector element must fit in a real (pgvector stores 4-byte floats), and the vector
-- they make must not be zero or of no finite length once stored (1e-46 underflows to 0).
-- Sizes are the caller's (memory._check_batch, memory._limit).
CREATE OR REPLACE FUNCTION memory._field_problem(p_value jsonb, p_kind text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE
        WHEN p_value IS NULL OR pg_catalog.jsonb_typeof(p_value) = 'null' THEN
            CASE WHEN p_kind IN ('id', 'text!', 'label!', 'int!') THEN 'is missing' END
        WHEN p_kind IN ('id', 'text!', 'text', 'label!', 'label')
                AND pg_catalog.jsonb_typeof(p_value) <> 'string' THEN
            'must be a string, not ' || pg_catalog.jsonb_typeof(p_value)
        WHEN p_kind IN ('label!', 'label') AND pg_catalog.length(p_value #>> '{}') > memory._label_max() THEN
            pg_catalog.format('must be at most %s characters, not %s', memory._label_max(),
                              pg_catalog.length(p_value #>> '{}'))
        WHEN p_kind = 'id' AND (p_value #>> '{}') = '' THEN
            'must not be empty'
        WHEN p_kind IN ('int', 'int!') AND (pg_catalog.jsonb_typeof(p_value) <> 'number'
                OR NOT pg_catalog.pg_input_is_valid(p_value #>> '{}', 'integer')) THEN
            'must be an integer, not ' || pg_catalog.left(p_value::text, 40)
        WHEN p_kind = 'fraction' AND CASE WHEN pg_catalog.jsonb_typeof(p_value) <> 'number' THEN true
                                          ELSE (p_value #>> '{}')::numeric NOT BETWEEN 0 AND 1 END THEN
            'must be a number from 0 to 1, not ' || pg_catalog.left(p_value::text, 40)
        WHEN p_kind = 'object' AND pg_catalog.jsonb_typeof(p_value) <> 'object' THEN
            'must be an object, not ' || pg_catalog.jsonb_typeof(p_value)
        WHEN p_kind = 'text[]' AND (pg_catalog.jsonb_typeof(p_value) <> 'array'
                OR pg_catalog.jsonb_path_exists(p_value, '$[*] ? (@.type() != "string")')) THEN
            'must be an array of strings'
        WHEN p_kind = 'timestamp' AND (pg_catalog.jsonb_typeof(p_value) <> 'string'
                OR NOT pg_catalog.pg_input_is_valid(p_value #>> '{}', 'timestamptz')
                OR (p_value #>> '{}') OPERATOR(pg_catalog.~*) '\m(now|today|tomorrow|yesterday)\M') THEN
            'must be an ISO 8601 timestamp, not ' || pg_catalog.left(p_value::text, 40)
        WHEN p_kind = 'vector' AND pg_catalog.jsonb_typeof(p_value) <> 'array' THEN
            'must be an array of 384 numbers, not ' || pg_catalog.jsonb_typeof(p_value)
        WHEN p_kind = 'vector' AND pg_catalog.jsonb_array_length(p_value) <> 384 THEN
            pg_catalog.format('must have 384 dimensions, not %s', pg_catalog.jsonb_array_length(p_value))
        -- one pass over the elements for a good vector, a second one to name a bad one's problem
        WHEN p_kind = 'vector' AND pg_catalog.jsonb_path_exists(p_value,
                '$[*] ? (@.type() != "number" || @ > 3.4028234663852886e38 || @ < -3.4028234663852886e38)') THEN
            CASE WHEN pg_catalog.jsonb_path_exists(p_value, '$[*] ? (@.type() != "number")')
                 THEN 'must hold only numbers'
                 ELSE 'must hold numbers within the range of real (4-byte float)' END
        WHEN p_kind = 'vector' THEN
            memory._vector_problem((p_value #>> '{}')::public.vector)
    END
$fn$;

COMMENT ON FUNCTION memory._field_problem(jsonb, text) IS 'Internal: the problem with one field of a batch item for a kind (id, text!, text, int, vector...), or NULL';
GRANT EXECUTE ON FUNCTION memory._field_problem(jsonb, text) TO memory_writer;
