-- Refuse a query vector that cannot be compared: NULL (22004), a dimension other than the
-- stored columns' (memory._stored_dimensions),
-- or one that is zero or of no finite length as stored in 4-byte floats (22023,
-- memory._vector_problem: 384 components of 1e-46 are the zero vector). pgvector itself
-- refuses NaN and infinity on input.
CREATE OR REPLACE FUNCTION memory._check_query_vector(p_query public.vector) RETURNS void
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_dims integer := memory._stored_dimensions();
BEGIN
    PERFORM memory._not_null(p_query, 'p_query', pg_catalog.format('pass a %s-dimensional embedding of the question', v_dims));
    IF public.vector_dims(p_query) <> v_dims THEN
        RAISE EXCEPTION 'p_query has % dimensions, expected %', public.vector_dims(p_query), v_dims
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('embed the question with the simulation''s model (%s dimensions)', v_dims);
    END IF;
    IF memory._vector_problem(p_query) IS NOT NULL THEN
        RAISE EXCEPTION 'p_query %', memory._vector_problem(p_query)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'a vector needs a direction and a finite length in 4-byte floats; embed a non-empty text';
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._check_query_vector(public.vector) IS 'Internal: refuse a NULL, wrong-dimension, zero or overflowing query vector';
GRANT EXECUTE ON FUNCTION memory._check_query_vector(public.vector) TO memory_reader;
