-- Begin a staged import of a simulation; returns the attempt id. The simulation is created
-- if it does not exist yet, unpublished: its reads answer P0002 until an attempt commits.
-- p_declared: the counts the importer will stage ({"nodes": n, "edges": n, "episodes": n,
-- "profiles": n}), checked by commit_import. p_skip_dangling: commit leaves edges to
-- unknown nodes out instead of refusing. p_metadata is merged into the simulation's
-- metadata on commit.
--
-- The calling session takes an advisory lock that marks the attempt alive; if the session
-- ends before commit or abort, the attempt shows as failed. Run the whole import on one
-- session.
CREATE OR REPLACE FUNCTION memory.begin_import(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_declared jsonb DEFAULT NULL,
    p_skip_dangling boolean DEFAULT false,
    p_metadata jsonb DEFAULT '{}'::jsonb,
    p_name text DEFAULT NULL)
RETURNS uuid
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_attempt_id uuid := pg_catalog.gen_random_uuid();
    v_lock_key   integer := pg_catalog.hashtext(v_attempt_id::text);
BEGIN
    PERFORM memory._enter_simulation(p_tenant_id, p_simulation_id);
    IF p_skip_dangling IS NULL THEN
        RAISE EXCEPTION 'p_skip_dangling must not be NULL'
            USING ERRCODE = 'null_value_not_allowed', HINT = 'pass true or false';
    END IF;
    IF p_declared IS NOT NULL AND (pg_catalog.jsonb_typeof(p_declared) <> 'object'
        OR pg_catalog.jsonb_path_exists(p_declared, '$.* ? (@.type() != "number" || @ < 0)')
        OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_object_keys(p_declared) AS k
                    WHERE k NOT IN ('nodes', 'edges', 'episodes', 'profiles'))) THEN
        RAISE EXCEPTION 'p_declared must map nodes, edges, episodes, profiles to counts, not %', p_declared
            USING ERRCODE = 'invalid_parameter_value', HINT = 'e.g. {"nodes": 30, "edges": 40}';
    END IF;
    IF p_metadata IS NULL OR pg_catalog.jsonb_typeof(p_metadata) <> 'object' THEN
        RAISE EXCEPTION 'p_metadata must be a JSON object, not %', COALESCE(pg_catalog.jsonb_typeof(p_metadata), 'NULL')
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass {} for none';
    END IF;

    INSERT INTO memory.simulations (tenant_id, simulation_id, name, published)
    VALUES (p_tenant_id, p_simulation_id, p_name, false)
    ON CONFLICT (tenant_id, simulation_id) DO NOTHING;
    PERFORM memory._fail_dead_attempts(p_tenant_id, p_simulation_id);

    INSERT INTO memory.import_attempts
           (tenant_id, simulation_id, attempt_id, lock_key, skip_dangling, declared, metadata)
    VALUES (p_tenant_id, p_simulation_id, v_attempt_id, v_lock_key, p_skip_dangling, p_declared,
            p_metadata || CASE WHEN p_name IS NULL THEN '{}'::jsonb
                               ELSE pg_catalog.jsonb_build_object('_name', p_name) END);
    PERFORM pg_catalog.pg_advisory_lock(memory._attempt_lock_class(), v_lock_key);
    RETURN v_attempt_id;
END
$fn$;

COMMENT ON FUNCTION memory.begin_import(uuid, uuid, jsonb, boolean, jsonb, text) IS 'Begin a staged import attempt of a simulation (created unpublished if new); returns the attempt id';
REVOKE ALL ON FUNCTION memory.begin_import(uuid, uuid, jsonb, boolean, jsonb, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION memory.begin_import(uuid, uuid, jsonb, boolean, jsonb, text) TO memory_writer;
