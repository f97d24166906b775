-- Refuse a query vector that cannot be compared: NULL (22004), a dimension other than 384,
-- or one that is zero or of no finite length as stored in 4-byte floats (22023,
-- memory._vector_problem: 384 components of 1e-46 are the zero vector). pgvector itself
-- refuses NaN and infinity on input.
CREATE OR REPLACE FUNCTION memory._check_query_vector(p_query public.vector) RETURNS void
LANGUAGE plpgsql IMMUTABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._not_null(p_query, 'p_query', 'pass a 384-dimensional embedding of the question');
    IF public.vector_dims(p_query) <> 384 THEN
        RAISE EXCEPTION 'p_query has % dimensions, expected 384', public.vector_dims(p_query)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'embed the question with all-MiniLM-L6-v2 (384 dimensions)';
    END IF;
    IF memory._vector_problem(p_query) IS NOT NULL THEN
        RAISE EXCEPTION 'p_query %', memory._vector_problem(p_query)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'a vector needs a direction and a finite length in 4-byte floats; embed a non-empty text';
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._check_query_vector(public.vector) IS 'Internal: refuse a NULL, wrong-dimension, zero or overflowing query vector';
GRANT EXECUTE ON FUNCTION memory._check_query_vector(public.vector) TO memory_reader;
