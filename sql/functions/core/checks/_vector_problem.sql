-- What makes a vector unusable as stored, or NULL when nothing does. pgvector stores 4-byte
-- floats and the cosine distance sums their squares in 4-byte floats too: components such
-- as 1e-46 underflow to zero (the zero vector), components near 1e-22 leave a squared
-- length below the smallest normal float (too few bits to compare), and large ones overflow
-- it to infinity; the search would return NaN or noise. public.inner_product(v, v) is that
-- same sum (vector_norm sums in double precision and misses all three). NaN and infinite
-- components never get this far: pgvector refuses them on input. Read by _field_problem
-- (batches), _check_query_vector (queries) and _staging_problem (staged rows).
CREATE OR REPLACE FUNCTION memory._vector_problem(p_vector public.vector) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT CASE WHEN x.squared = 0 THEN
                    'is the zero vector as stored (4-byte floats: components this small underflow to 0)'
                WHEN x.squared < 1.1754943508222875e-38 THEN
                    'is too close to the zero vector to compare as stored (4-byte floats)'
                WHEN NOT (x.squared < 'Infinity'::double precision) THEN
                    'has no finite length as stored (4-byte floats: components this large overflow)' END
      FROM (SELECT public.inner_product(p_vector, p_vector) AS squared) AS x
$fn$;

COMMENT ON FUNCTION memory._vector_problem(public.vector) IS 'Internal: why a vector cannot be compared as stored (zero or not finite in 4-byte floats), or NULL';
GRANT EXECUTE ON FUNCTION memory._vector_problem(public.vector) TO memory_reader, memory_writer;
