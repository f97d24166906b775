-- The reports of a simulation (MiroFish's ReportAgent, reports/<report_id>/meta.json), newest
-- first (by when their generation began, then id), each with how many sections and
-- predictions it has. started_at is MiroFish's created_at; metadata holds the rest of
-- meta.json, outline.json and progress.json as written.
CREATE OR REPLACE FUNCTION memory.reports(p_tenant_id uuid, p_simulation_id uuid)
RETURNS TABLE (report_id text, mirofish_simulation_id text, graph_id text, title text, summary text,
               status text, simulation_requirement text, started_at timestamptz,
               completed_at timestamptz, error text, sections bigint, predictions bigint,
               metadata jsonb, source text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT r.report_id, r.mirofish_simulation_id, r.graph_id, r.title, r.summary, r.status,
           r.simulation_requirement, r.started_at, r.completed_at, r.error,
           (SELECT pg_catalog.count(*) FROM memory.report_sections AS s
             WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id AND s.report_key = r.report_key),
           (SELECT pg_catalog.count(*) FROM memory.predictions AS p
             WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id AND p.report_id = r.report_id),
           r.metadata, r.source
      FROM memory.reports AS r
     WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id
     ORDER BY r.started_at DESC NULLS LAST, r.report_id;
$fn$;

COMMENT ON FUNCTION memory.reports(uuid, uuid) IS 'The reports of a simulation, newest first, with their section and prediction counts';
GRANT EXECUTE ON FUNCTION memory.reports(uuid, uuid) TO memory_reader;
