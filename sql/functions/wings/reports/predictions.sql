-- The predictions of a simulation (of one report with p_report_id), by report, section and
-- id, each with its recorded outcome (NULL while none is recorded: memory.record_outcome).
CREATE OR REPLACE FUNCTION memory.predictions(p_tenant_id uuid, p_simulation_id uuid, p_report_id text DEFAULT NULL)
RETURNS TABLE (prediction_id text, report_id text, section_index integer, claim text, horizon text,
               confidence numeric, metadata jsonb, source text, outcome text, note text,
               observed_at timestamptz, recorded_at timestamptz, recorded_by name)
LANGUAGE sql STABLE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
    SELECT memory._require_simulation(p_tenant_id, p_simulation_id);
    SELECT p.prediction_id, p.report_id, p.section_index, p.claim, p.horizon, p.confidence,
           p.metadata, p.source, o.outcome, o.note, o.observed_at, o.recorded_at, o.recorded_by
      FROM memory.predictions AS p
      LEFT JOIN memory.prediction_outcomes AS o
        ON o.tenant_id = p.tenant_id AND o.simulation_id = p.simulation_id AND o.prediction_key = p.prediction_key
     WHERE p.tenant_id = p_tenant_id AND p.simulation_id = p_simulation_id
       AND (p_report_id IS NULL OR p.report_id = p_report_id)
     ORDER BY p.report_id NULLS LAST, p.section_index NULLS LAST, p.prediction_id;
$fn$;

COMMENT ON FUNCTION memory.predictions(uuid, uuid, text) IS 'The predictions of a simulation (or of one report) with their recorded outcomes';
GRANT EXECUTE ON FUNCTION memory.predictions(uuid, uuid, text) TO memory_reader;
