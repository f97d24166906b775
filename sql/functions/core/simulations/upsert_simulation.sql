-- Create or update a simulation of the tenant. A NULL p_name keeps the stored name;
-- p_metadata is merged into the stored metadata (top-level keys replaced). Repeating a call
-- changes nothing (updated_at moves only when something changed). A simulation created by
-- a staged import that has not committed yet becomes an ordinary, published one.
-- p_name and p_metadata are capped by memory._limit() (string_bytes, object_bytes: 54000).
-- updated_at takes the proposed row's (its default, now()): Citus refuses now() itself in
-- the SET of an ON CONFLICT DO UPDATE on a distributed table. A new simulation beyond the
-- tenant's quota of simulations is refused (53400, memory._check_quota; V0038).
CREATE OR REPLACE FUNCTION memory.upsert_simulation(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_name text DEFAULT NULL,
    p_metadata jsonb DEFAULT '{}'::jsonb)
RETURNS void
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_new     boolean;
    v_changed boolean;
    v_change  bigint;
BEGIN
    PERFORM memory._enter_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._check_limit('string_bytes', 'p_name', pg_catalog.octet_length(p_name));
    PERFORM memory._check_limit('object_bytes', 'p_metadata', pg_catalog.pg_column_size(p_metadata));
    IF p_metadata IS NOT NULL AND pg_catalog.jsonb_typeof(p_metadata) <> 'object' THEN
        RAISE EXCEPTION 'p_metadata must be a JSON object, not %', pg_catalog.jsonb_typeof(p_metadata)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a JSON object such as {"rounds": 8}';
    END IF;

    v_new := NOT EXISTS (SELECT 1 FROM memory.simulations AS s
                          WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id);
    INSERT INTO memory.simulations AS s (tenant_id, simulation_id, name, metadata)
    VALUES (p_tenant_id, p_simulation_id, p_name, COALESCE(p_metadata, '{}'::jsonb))
    ON CONFLICT (tenant_id, simulation_id) DO UPDATE
       SET name = COALESCE(excluded.name, s.name),
           metadata = s.metadata || excluded.metadata,
           published = true,
           updated_at = excluded.updated_at
     WHERE (s.name, s.metadata, s.published) IS DISTINCT FROM
           (COALESCE(excluded.name, s.name), s.metadata || excluded.metadata, true);
    v_changed := FOUND;
    IF v_changed AND v_new THEN
        PERFORM memory._check_quota(p_tenant_id, 'simulations');
    END IF;
    IF v_changed THEN  -- the change feed (V0021), called as a plain expression (memory._record_change)
        v_change := memory._record_change(p_tenant_id, p_simulation_id, 'simulation', 'upsert');
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory.upsert_simulation(uuid, uuid, text, jsonb) IS 'Create or update a simulation (NULL name keeps the stored one, metadata is merged); idempotent';
GRANT EXECUTE ON FUNCTION memory.upsert_simulation(uuid, uuid, text, jsonb) TO memory_writer;
