-- The texts behind a simulation's vectors that are not of p_model yet, one row per vector:
-- a node's "{type}: {name}" (embedding) and its summary (summary_embedding), an edge's fact,
-- an episode's content, a report chunk's "{section title}\n{chunk}" (the importer's texts),
-- each with its content hash under p_model (memory._text_hash). Only rows that hold a vector
-- now: a row stored without one (an action that says nothing, an edge without a fact) stays
-- without. The caller has entered the tenant.
CREATE OR REPLACE FUNCTION memory._reembed_sources(p_tenant_id uuid, p_simulation_id uuid, p_model text)
RETURNS TABLE (kind text, text_hash bytea, text text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
    SELECT s.kind, memory._text_hash(p_model, s.text), s.text
      FROM (SELECT 'nodes' AS kind, t.text
              FROM memory.nodes AS n
             CROSS JOIN LATERAL (VALUES (n.type || ': ' || n.name, n.embedding IS NOT NULL),
                                        (n.summary, n.summary_embedding IS NOT NULL)) AS t(text, embedded)
             WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
               AND t.embedded AND n.embedding_model IS DISTINCT FROM p_model
            UNION ALL
            SELECT 'edges', e.fact
              FROM memory.edges AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND e.embedding IS NOT NULL AND e.embedding_model IS DISTINCT FROM p_model
            UNION ALL
            SELECT 'episodes', e.content
              FROM memory.episodes AS e
             WHERE e.tenant_id = p_tenant_id AND e.simulation_id = p_simulation_id
               AND e.embedding IS NOT NULL AND e.embedding_model IS DISTINCT FROM p_model
            UNION ALL
            SELECT 'report_chunks', s.title || E'\n' || c.content
              FROM memory.report_chunks AS c
              JOIN memory.report_sections AS s
                ON s.tenant_id = c.tenant_id AND s.simulation_id = c.simulation_id
               AND s.report_key = c.report_key AND s.section_index = c.section_index
             WHERE c.tenant_id = p_tenant_id AND c.simulation_id = p_simulation_id
               AND c.embedding IS NOT NULL AND c.embedding_model IS DISTINCT FROM p_model) AS s
     WHERE s.text IS NOT NULL
$fn$;

COMMENT ON FUNCTION memory._reembed_sources(uuid, uuid, text) IS 'Internal: the texts behind a simulation''s vectors not of a model yet, with their content hashes under it';
GRANT EXECUTE ON FUNCTION memory._reembed_sources(uuid, uuid, text) TO memory_writer;
