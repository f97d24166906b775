-- The vectors a tenant has cached for the content hashes asked, under one embedding model:
-- an importer embeds only the texts whose hash is not here (nor committed in the simulation
-- it imports into). A hash the cache does not hold is left out; so is a cached vector that
-- memory._vector_problem refuses (a writer may INSERT into the table directly, and such a
-- row must be a miss, not a vector staged and refused later). At most
-- memory._limit('cache_hashes') hashes a call (54000): the importer asks in batches.
CREATE OR REPLACE FUNCTION memory.cached_vectors(p_tenant_id uuid, p_embedding_model text, p_hashes bytea[])
RETURNS TABLE (content_hash bytea, embedding public.vector)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._enter_vector_cache(p_tenant_id, p_embedding_model, p_hashes);
    RETURN QUERY SELECT c.content_hash, c.embedding
      FROM memory.vector_cache AS c
     WHERE c.tenant_id = p_tenant_id AND c.embedding_model = p_embedding_model
       AND c.content_hash = ANY (p_hashes)
       AND memory._vector_problem(c.embedding) IS NULL;
END
$fn$;

COMMENT ON FUNCTION memory.cached_vectors(uuid, text, bytea[]) IS 'The tenant''s cached vectors of an embedding model for the content hashes asked (hits only)';
GRANT EXECUTE ON FUNCTION memory.cached_vectors(uuid, text, bytea[]) TO memory_writer;
