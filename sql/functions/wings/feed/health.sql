-- The memory's health, one row per metric (section, scope, metric, value, ok, detail):
-- 'size' rows and bytes per tenant, simulation (by kind) and agent (episodes); 'index' the
-- state of each simulation's search indexes, a row a kind: 'ann_index' (episodes),
-- 'facts_ann_index' (facts), 'entities_ann_index' (the entities' pair, whole only when both
-- halves exist and are valid): 'indexed', 'exact' below 2,000 embedded rows of the kind,
-- 'missing' or 'invalid': not ok; 'recall' the sampled recall@10 of the approximate search
-- over episodes against the exact one for simulations whose episodes are indexed
-- (p_recall_sample queries a simulation, 0 to memory._limit('health_sample') (100): more is
-- refused with 54000, each being an exact scan; not ok below 0.95); 'feed' the change feed's head; 'latency'
-- per memory function called, from pg_stat_statements where it is installed and loaded, as
-- the caller may read it (calls, mean, stddev, max; the 95th / 99th percentiles estimated
-- as mean + 1.645 / 2.326 stddev, capped at max: pg_stat_statements keeps no percentiles),
-- else one row saying why not.
-- p_tenant_id NULL: every tenant the caller may act for (every tenant for memory_admin).
-- On a Citus cluster this function is not delegated (its tenant may be NULL, which Citus
-- 14.0.1 cannot route: docs/scale-out.md) and refuses with 0A000: a tenant's health is
-- memory.health_tenant there, one call a tenant on its worker.
CREATE OR REPLACE FUNCTION memory.health(p_tenant_id uuid DEFAULT NULL, p_recall_sample integer DEFAULT 10)
RETURNS TABLE (section text, tenant_id uuid, simulation_id uuid, agent_id integer, metric text,
               value double precision, ok boolean, detail jsonb)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_tenant uuid;
    v_schema name;
BEGIN
    IF p_recall_sample < 0 THEN
        RAISE EXCEPTION 'p_recall_sample must be 0 or more, not %', p_recall_sample
            USING ERRCODE = 'invalid_parameter_value', HINT = '0 skips the recall check; 10 is the default';
    END IF;
    PERFORM memory._check_limit('health_sample', 'p_recall_sample', p_recall_sample);
    PERFORM memory._refuse_on_cluster('health', 'memory.health_tenant(tenant_id) for each tenant');
    IF p_tenant_id IS NOT NULL THEN
        RETURN QUERY SELECT * FROM memory.health_tenant(p_tenant_id, p_recall_sample);
    ELSE
        FOR v_tenant IN SELECT t.tenant_id FROM memory.list_tenants() AS t ORDER BY t.tenant_id LOOP
            RETURN QUERY SELECT * FROM memory._health_tenant(v_tenant, COALESCE(p_recall_sample, 10));
        END LOOP;
    END IF;

    SELECT n.nspname INTO v_schema FROM pg_catalog.pg_extension AS x
      JOIN pg_catalog.pg_namespace AS n ON n.oid = x.extnamespace WHERE x.extname = 'pg_stat_statements';
    IF v_schema IS NULL THEN
        RETURN QUERY SELECT 'latency'::text, NULL::uuid, NULL::uuid, NULL::integer, 'pg_stat_statements'::text,
                            NULL::double precision, NULL::boolean, '{"installed": false}'::jsonb;
        RETURN;
    END IF;
    BEGIN
        RETURN QUERY EXECUTE pg_catalog.format($q$
            WITH s AS (
                SELECT pg_catalog.substring(p.query FROM 'memory\.([a-z_]+)\s*\(') AS fn, p.calls,
                       p.total_exec_time, p.stddev_exec_time, p.mean_exec_time, p.max_exec_time
                  FROM %I.pg_stat_statements AS p
                 WHERE p.dbid = (SELECT d.oid FROM pg_catalog.pg_database AS d WHERE d.datname = pg_catalog.current_database())
                   AND p.calls > 0 AND p.query ~ 'memory\.[a-z]'
            ), f AS (
                SELECT s.fn, pg_catalog.sum(s.calls) AS calls, pg_catalog.sum(s.total_exec_time) / pg_catalog.sum(s.calls) AS mean,
                       pg_catalog.max(s.max_exec_time) AS max,
                       pg_catalog.sum(s.calls * (s.stddev_exec_time ^ 2 + s.mean_exec_time ^ 2)) / pg_catalog.sum(s.calls) AS ex2
                  FROM s WHERE s.fn IS NOT NULL AND s.fn NOT LIKE '\_%%' GROUP BY s.fn
            )
            SELECT 'latency'::text, NULL::uuid, NULL::uuid, NULL::integer, f.fn::text, f.mean::double precision, NULL::boolean,
                   pg_catalog.jsonb_build_object(
                       'calls', f.calls, 'mean_ms', pg_catalog.round(f.mean::numeric, 3),
                       'stddev_ms', pg_catalog.round(pg_catalog.sqrt(GREATEST(f.ex2 - f.mean ^ 2, 0))::numeric, 3),
                       'max_ms', pg_catalog.round(f.max::numeric, 3),
                       'p95_ms_est', pg_catalog.round(LEAST(f.max, f.mean + 1.645 * pg_catalog.sqrt(GREATEST(f.ex2 - f.mean ^ 2, 0)))::numeric, 3),
                       'p99_ms_est', pg_catalog.round(LEAST(f.max, f.mean + 2.326 * pg_catalog.sqrt(GREATEST(f.ex2 - f.mean ^ 2, 0)))::numeric, 3))
              FROM f ORDER BY f.calls DESC, f.fn$q$, v_schema);
    EXCEPTION WHEN object_not_in_prerequisite_state OR insufficient_privilege OR undefined_table THEN
        RETURN QUERY SELECT 'latency'::text, NULL::uuid, NULL::uuid, NULL::integer, 'pg_stat_statements'::text,
                            NULL::double precision, NULL::boolean,
                            pg_catalog.jsonb_build_object('installed', true, 'error', SQLERRM);
    END;
END
$fn$;

COMMENT ON FUNCTION memory.health(uuid, integer) IS 'Rows and bytes per tenant, simulation and agent, search index state (episodes'', facts'' and entities'' per simulation), sampled index recall (alert below 0.95), feed head, and latency from pg_stat_statements where installed';
GRANT EXECUTE ON FUNCTION memory.health(uuid, integer) TO memory_reader, memory_admin;
