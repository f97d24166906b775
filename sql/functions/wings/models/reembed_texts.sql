-- Phase one of a re-embed (swarm-memory reembed): the distinct texts behind a simulation's
-- vectors that still need a vector of p_model, at most p_limit (1..100,000, NULL 10,000),
-- by content hash. A text counts as done once the tenant's vector cache holds its vector
-- under p_model (memory.cache_vectors, which the caller calls after each batch it embeds, in
-- a transaction of its own): so a re-embed killed at any point resumes where it stopped, and
-- one that has nothing left gets no row. Reads nothing but the simulation and the cache, so
-- every read goes on answering from the current vectors meanwhile.
CREATE OR REPLACE FUNCTION memory.reembed_texts(p_tenant_id uuid, p_simulation_id uuid, p_model text,
                                                p_limit integer DEFAULT 10000)
RETURNS TABLE (content_hash bytea, text text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT memory._reembed_model(p_model);
    SELECT s.text_hash, pg_catalog.min(s.text)
      FROM memory._reembed_sources(p_tenant_id, p_simulation_id, p_model) AS s
     WHERE NOT EXISTS (SELECT 1 FROM memory.vector_cache AS c
                        WHERE c.tenant_id = p_tenant_id AND c.embedding_model = p_model
                          AND c.content_hash = s.text_hash AND memory._vector_problem(c.embedding) IS NULL)
     GROUP BY s.text_hash
     ORDER BY s.text_hash
     LIMIT LEAST(GREATEST(COALESCE(p_limit, 10000), 1), 100000);
$fn$;

COMMENT ON FUNCTION memory.reembed_texts(uuid, uuid, text, integer) IS 'The texts of a simulation still needing a vector of a model (not in the tenant''s vector cache): a re-embed''s work list, resumable';
GRANT EXECUTE ON FUNCTION memory.reembed_texts(uuid, uuid, text, integer) TO memory_writer;
