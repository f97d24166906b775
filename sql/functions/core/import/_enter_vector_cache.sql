-- Enter the tenant (memory._enter_tenant: 22004, 42501) and check what both calls on a
-- tenant's vector cache take: the embedding model, named (22004) and of 1 to
-- memory._label_max() characters (22023), and the content hashes, an array (22004) of at
-- most memory._limit('cache_hashes') elements (54000). Read by memory.cached_vectors and
-- memory.cache_vectors, before they read or write anything.
CREATE OR REPLACE FUNCTION memory._enter_vector_cache(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[])
RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_embedding_model IS NULL OR p_hashes IS NULL THEN
        RAISE EXCEPTION '% must not be NULL', CASE WHEN p_hashes IS NULL THEN 'p_hashes' ELSE 'p_embedding_model' END
            USING ERRCODE = 'null_value_not_allowed',
                  HINT = 'pass the model that made the vectors and an array of content hashes (''{}'' for none)';
    END IF;
    IF p_embedding_model = '' OR pg_catalog.char_length(p_embedding_model) > memory._label_max() THEN
        RAISE EXCEPTION 'p_embedding_model % is empty or longer than % characters',
                        memory._quote(pg_catalog.quote_literal(p_embedding_model)), memory._label_max()
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass the model''s name, e.g. all-MiniLM-L6-v2';
    END IF;
    PERFORM memory._check_limit('cache_hashes', 'p_hashes', pg_catalog.cardinality(p_hashes));
END
$fn$;

COMMENT ON FUNCTION memory._enter_vector_cache(uuid, text, bytea[]) IS 'Internal: enter the tenant and check the model name and the hash array of a vector-cache call';
GRANT EXECUTE ON FUNCTION memory._enter_vector_cache(uuid, text, bytea[]) TO memory_writer;
