-- Queue again the failed episodes of a graph (NULL: every graph of the tenant), their
-- attempts counted from zero: what an operator runs once the model endpoint works again.
-- Returns how many were queued.
CREATE OR REPLACE FUNCTION memory.zep_retry_episodes(p_tenant_id uuid, p_graph_id text DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_sim uuid;
    v_n   bigint;
BEGIN
    PERFORM memory._enter_tenant(p_tenant_id);
    IF p_graph_id IS NOT NULL THEN
        v_sim := memory._zep_simulation(p_tenant_id, p_graph_id);
    END IF;
    UPDATE memory.zep_episodes AS z
       SET status = 'queued', attempts = 0, next_attempt_at = NULL
     WHERE z.tenant_id = p_tenant_id AND z.status = 'failed'
       AND (v_sim IS NULL OR z.simulation_id = v_sim);
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END
$fn$;

COMMENT ON FUNCTION memory.zep_retry_episodes(uuid, text) IS 'Queue again the failed episodes of a graph (NULL: all), attempts from zero';
GRANT EXECUTE ON FUNCTION memory.zep_retry_episodes(uuid, text) TO memory_writer;
