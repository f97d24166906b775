-- A report's agent log (agent_log.jsonl), a page at a time in line order: p_limit lines
-- (clamped to 1..1000, NULL means 100) after line p_after (NULL: from the first). Each line
-- is the JSON object MiroFish wrote, with its action. An unknown report is P0002.
CREATE OR REPLACE FUNCTION memory.report_log(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_report_id text,
    p_limit integer DEFAULT 100,
    p_after integer DEFAULT NULL)
RETURNS TABLE (line_no integer, action text, entry jsonb)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_row('reports', p_tenant_id, p_simulation_id, p_report_id);
    SELECT l.line_no, l.action, l.entry
      FROM memory.report_log AS l
     WHERE l.tenant_id = p_tenant_id AND l.simulation_id = p_simulation_id
       AND l.report_key = pg_catalog.md5(p_report_id)::uuid
       AND (p_after IS NULL OR l.line_no > p_after)
     ORDER BY l.line_no
     LIMIT memory._page_rows(p_limit, 100);
$fn$;

COMMENT ON FUNCTION memory.report_log(uuid, uuid, text, integer, integer) IS 'A report''s agent log lines in order, a page at a time';
GRANT EXECUTE ON FUNCTION memory.report_log(uuid, uuid, text, integer, integer) TO memory_reader;
