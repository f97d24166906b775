-- memory._search_facts' ranking over the facts as the memory held them at a record time
-- (p_known_at, a snapshot's: memory._known over memory.row_history), for a caller that has
-- entered the tenant and checked the query, its model and the state: the p_top_k facts
-- most similar to p_query (clamped to 1..100, NULL: 10) in that state at p_as_of (NULL:
-- now), best first by similarity then edge id, ends unnamed. An exact scan: no index holds
-- the versions a later import changed or removed, and a snapshot's answers must not depend
-- on which of them an approximate search happens to reach.
-- A version kept in row_history has no vector (memory._record_history keeps none), so each
-- is ranked by the vector of its own text where one is sound to take: the live row's when
-- its fact reads the same (the same text under the simulation's model), else the tenant's
-- vector cache by the version's content hash when the version was embedded with the
-- simulation's model (an import caches every text it embeds under that hash). A version
-- with neither is left out, as a live fact without a vector is: ranking it by another
-- text's vector, or by another model's, would answer by meaning it never had.
CREATE OR REPLACE FUNCTION memory._search_facts_known(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer,
    p_state text,
    p_as_of timestamptz,
    p_known_at timestamptz)
RETURNS TABLE (edge_id text, type text, fact text, source_id text, source_key uuid, target_id text,
               target_key uuid, valid_at timestamptz, invalid_at timestamptz, state text,
               similarity double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_as_of timestamptz := COALESCE(p_as_of, pg_catalog.now());
    v_model text := (memory._simulation_model(p_tenant_id, p_simulation_id)).model;
BEGIN
    -- the state is memory._fact_state's rule written out (see memory.facts)
    RETURN QUERY
    SELECT r.edge_id, r.type, r.fact, r.source_id, r.source_key, r.target_id, r.target_key,
           r.valid_at, r.invalid_at, r.state,
           1 - (r.embedding OPERATOR(public.<=>) p_query::public.vector(384)) AS similarity
      FROM (SELECT k.edge_id, k.type, k.fact, k.source_id, k.source_key, k.target_id, k.target_key,
                   k.valid_at, k.invalid_at,
                   CASE WHEN k.valid_at > v_as_of THEN 'future'
                        WHEN k.invalid_at <= v_as_of THEN 'ended'
                        WHEN k.expired_at <= v_as_of THEN 'expired'
                        ELSE 'current' END AS state,
                   COALESCE(k.embedding,
                            (SELECT e.embedding FROM memory.edges AS e
                              WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
                                AND e.edge_key = k.edge_key AND e.fact = k.fact),
                            (SELECT c.embedding FROM memory.vector_cache AS c
                              WHERE c.tenant_id = p_tenant_id AND c.embedding_model = k.embedding_model
                                AND c.content_hash = k.content_hash AND k.embedding_model = v_model)) AS embedding
              FROM memory._known(NULL::memory.edges, p_tenant_id, p_simulation_id, p_known_at) AS k) AS r
     WHERE r.embedding IS NOT NULL
       AND (p_state = 'all' OR r.state = p_state OR (p_state = 'historical' AND r.state IN ('ended', 'expired')))
     ORDER BY 11 DESC, 1
     LIMIT memory._top_k(p_top_k);
END
$fn$;

COMMENT ON FUNCTION memory._search_facts_known(uuid, uuid, public.vector, integer, text, timestamptz, timestamptz) IS 'Internal: memory._search_facts'' ranking over the facts as the memory held them at a record time (an exact scan; a kept version ranked by its own text''s vector)';
GRANT EXECUTE ON FUNCTION memory._search_facts_known(uuid, uuid, public.vector, integer, text, timestamptz, timestamptz) TO memory_reader;
