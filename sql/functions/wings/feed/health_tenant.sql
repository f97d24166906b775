-- One tenant's health, the rows memory.health gives for it: 'size', 'index', 'recall' and
-- 'feed' (no 'latency': that is the node's, memory.health). The form a Citus cluster runs,
-- where the call goes whole to the tenant's worker (memory.health, whose tenant may be NULL,
-- stays on the coordinator and refuses there). A caller that is not an administrator must
-- hold a grant for the tenant (42501). NULL tenant 22004; p_recall_sample below 0 22023, over
-- memory._limit('health_sample') (100) 54000.
CREATE OR REPLACE FUNCTION memory.health_tenant(p_tenant_id uuid, p_recall_sample integer DEFAULT 10)
RETURNS TABLE (section text, tenant_id uuid, simulation_id uuid, agent_id integer, metric text,
               value double precision, ok boolean, detail jsonb)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
BEGIN
    PERFORM memory._not_null(p_tenant_id, 'p_tenant_id', 'pass the id of the tenant, or call memory.health() for every tenant');
    IF p_recall_sample < 0 THEN
        RAISE EXCEPTION 'p_recall_sample must be 0 or more, not %', p_recall_sample
            USING ERRCODE = 'invalid_parameter_value', HINT = '0 skips the recall check; 10 is the default';
    END IF;
    PERFORM memory._check_limit('health_sample', 'p_recall_sample', p_recall_sample);
    IF NOT pg_catalog.pg_has_role(CURRENT_USER, 'memory_admin', 'USAGE') THEN
        PERFORM memory._enter_tenant(p_tenant_id);
    END IF;
    RETURN QUERY SELECT * FROM memory._health_tenant(p_tenant_id, COALESCE(p_recall_sample, 10));
END
$fn$;

COMMENT ON FUNCTION memory.health_tenant(uuid, integer) IS 'One tenant''s sizes, search index state, sampled index recall and feed head (memory.health without latency); the per-tenant health a Citus cluster runs on the tenant''s worker';
GRANT EXECUTE ON FUNCTION memory.health_tenant(uuid, integer) TO memory_reader, memory_admin;
