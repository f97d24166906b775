-- The sections of one report in order: each section_NN.md as MiroFish wrote it (markdown,
-- starting with its "## title" line) and its title. An unknown report is P0002.
CREATE OR REPLACE FUNCTION memory.report_sections(p_tenant_id uuid, p_simulation_id uuid, p_report_id text)
RETURNS TABLE (section_index integer, title text, markdown text)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_row('reports', p_tenant_id, p_simulation_id, p_report_id);
    SELECT s.section_index, s.title, s.markdown
      FROM memory.report_sections AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id
       AND s.report_key = pg_catalog.md5(p_report_id)::uuid
     ORDER BY s.section_index;
$fn$;

COMMENT ON FUNCTION memory.report_sections(uuid, uuid, text) IS 'The sections of a report in order, as written (markdown)';
GRANT EXECUTE ON FUNCTION memory.report_sections(uuid, uuid, text) TO memory_reader;
