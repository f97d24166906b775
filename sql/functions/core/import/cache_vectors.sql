-- Add vectors to a tenant's cache, p_vectors[i] being the vector of the text whose content
-- hash is p_hashes[i] under p_embedding_model; returns how many rows were new. A hash the
-- cache holds already keeps its vector (ON CONFLICT DO NOTHING: a (model, hash) names one
-- text, and the first vector computed for it stays), so repeating a call adds nothing.
-- Refused before anything is written: arrays of different lengths (22023), a NULL element
-- (22004), a hash of more than 64 bytes, a vector of another dimension than 384 or one that
-- cannot be compared as stored (memory._vector_problem) (22023), more than
-- memory._limit('cache_hashes') hashes (54000). The importer calls it in a transaction of
-- its own right after embedding, so a refused or killed attempt leaves its vectors here.
CREATE OR REPLACE FUNCTION memory.cache_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[],
                                                p_vectors public.vector[])
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_dims     integer := memory._stored_dimensions();
    v_bad      record;
    v_inserted bigint;
BEGIN
    PERFORM memory._enter_vector_cache(p_tenant_id, p_embedding_model, p_hashes);
    PERFORM memory._not_null(p_vectors, 'p_vectors', 'pass one vector per content hash (''{}'' for none)');
    IF pg_catalog.cardinality(p_hashes) <> pg_catalog.cardinality(p_vectors) THEN
        RAISE EXCEPTION 'p_hashes has % elements and p_vectors %', pg_catalog.cardinality(p_hashes),
                        pg_catalog.cardinality(p_vectors)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass one vector per content hash, in the same order';
    END IF;
    SELECT u.i, u.h IS NULL OR u.v IS NULL AS missing,
           CASE WHEN u.h IS NULL THEN 'p_hashes[' || u.i || '] is NULL'
                WHEN u.v IS NULL THEN 'p_vectors[' || u.i || '] is NULL'
                WHEN pg_catalog.octet_length(u.h) > 64 THEN
                    pg_catalog.format('p_hashes[%s] has %s bytes, at most 64', u.i, pg_catalog.octet_length(u.h))
                WHEN public.vector_dims(u.v) <> v_dims THEN
                    pg_catalog.format('p_vectors[%s] has %s dimensions, expected %s', u.i, public.vector_dims(u.v), v_dims)
                ELSE 'p_vectors[' || u.i || '] ' || memory._vector_problem(u.v) END AS problem
      INTO v_bad
      FROM ROWS FROM (pg_catalog.unnest(p_hashes), pg_catalog.unnest(p_vectors)) WITH ORDINALITY AS u (h, v, i)
     WHERE u.h IS NULL OR u.v IS NULL OR pg_catalog.octet_length(u.h) NOT BETWEEN 1 AND 64
        OR public.vector_dims(u.v) <> v_dims OR memory._vector_problem(u.v) IS NOT NULL
     ORDER BY u.i
     LIMIT 1;
    IF FOUND THEN
        IF v_bad.missing THEN
            RAISE EXCEPTION '%', v_bad.problem
                USING ERRCODE = 'null_value_not_allowed', HINT = 'nothing was cached; pass a hash and a vector for every text';
        END IF;
        RAISE EXCEPTION '%', COALESCE(v_bad.problem, 'p_hashes[' || v_bad.i || '] is empty')
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = pg_catalog.format('nothing was cached; pass %s-dimensional embeddings of non-empty texts and their content hashes (sha256)', v_dims);
    END IF;

    INSERT INTO memory.vector_cache AS c (tenant_id, embedding_model, content_hash, embedding)
    SELECT p_tenant_id, p_embedding_model, u.h, u.v
      FROM ROWS FROM (pg_catalog.unnest(p_hashes), pg_catalog.unnest(p_vectors)) AS u (h, v)
    ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS v_inserted = ROW_COUNT;
    RETURN v_inserted;
END
$fn$;

COMMENT ON FUNCTION memory.cache_vectors(uuid, text, bytea[], public.vector[]) IS 'Add vectors to the tenant''s cache by embedding model and content hash; returns the rows added (a cached hash keeps its vector)';
GRANT EXECUTE ON FUNCTION memory.cache_vectors(uuid, text, bytea[], public.vector[]) TO memory_writer;
