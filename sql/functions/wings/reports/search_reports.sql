-- The chunks of a simulation's report sections nearest a query embedding, best first
-- (similarity = 1 - cosine distance, as search_episodes); p_top_k clamped to 1..100 (NULL means 10); p_report_id
-- narrows to one report (P0002 when the simulation has no such report). Searched exactly:
-- a simulation has a few reports of a few dozen chunks. p_model, the model of the query
-- vector: refused (22023) when it is not the simulation's (memory._check_query_model);
-- NULL names the default model, so a vector without its model is refused on a simulation
-- of another.
CREATE OR REPLACE FUNCTION memory.search_reports(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_query public.vector,
    p_top_k integer DEFAULT 10,
    p_report_id text DEFAULT NULL,
    p_model text DEFAULT NULL)
RETURNS TABLE (report_id text, section_index integer, section_title text, chunk_index integer,
               content text, similarity double precision)
LANGUAGE plpgsql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id) WHERE p_report_id IS NULL;
    PERFORM memory._require_row('reports', p_tenant_id, p_simulation_id, p_report_id) WHERE p_report_id IS NOT NULL;
    PERFORM memory._check_query_vector(p_query);
    PERFORM memory._check_query_model(p_tenant_id, p_simulation_id, p_model);
    RETURN QUERY
    SELECT c.report_id, c.section_index, s.title, c.chunk_index, c.content,
           1 - (c.embedding OPERATOR(public.<=>) p_query::public.vector(384))
      FROM memory.report_chunks AS c
      JOIN memory.report_sections AS s
        ON s.tenant_id = c.tenant_id AND s.simulation_id = c.simulation_id
       AND s.report_key = c.report_key AND s.section_index = c.section_index
     WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
       AND c.embedding IS NOT NULL
       AND (p_report_id IS NULL OR c.report_key = pg_catalog.md5(p_report_id)::uuid)
     ORDER BY c.embedding OPERATOR(public.<=>) p_query::public.vector(384), c.chunk_id
     LIMIT memory._top_k(p_top_k);
END
$fn$;

COMMENT ON FUNCTION memory.search_reports(uuid, uuid, public.vector, integer, text, text) IS 'Semantic search over a simulation''s report sections (chunks, cosine), best first; top_k clamped to 1..100';
GRANT EXECUTE ON FUNCTION memory.search_reports(uuid, uuid, public.vector, integer, text, text) TO memory_reader;
