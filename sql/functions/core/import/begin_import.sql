-- Begin a staged import of a simulation; returns the attempt id. The simulation is created
-- if it does not exist yet, unpublished: its reads answer P0002 until an attempt commits.
-- p_declared: the counts the importer will stage by record kind ({"nodes": n, "edges": n,
-- "episodes": n, "profiles": n, "reports": n, ...}), checked by commit_import. p_skip_dangling: commit leaves edges to
-- unknown nodes out instead of refusing. p_metadata is merged into the simulation's
-- metadata on commit.
--
-- The attempt records the calling backend (pid and start time) and the session takes an
-- advisory lock: the attempt is alive while that backend holds it (memory._attempt_alive);
-- if the session ends before commit or abort, the attempt shows as failed, whoever takes the
-- lock next. Run the whole import on one session. p_declared, p_metadata and p_name are
-- capped by memory._limit() (54000).
--
-- p_scope: what the attempt replaces. NULL, the whole simulation: after the commit it holds
-- exactly the attempt's rows. Otherwise an object naming the kinds the import carries, each
-- mapped to null (all of the kind) or to a list of platforms (episodes and profiles of
-- those platforms): only there are rows absent from the attempt removed. A kind it does not
-- name is kept as it is; rows written through upsert_* (source 'api') are never removed.
CREATE OR REPLACE FUNCTION memory.begin_import(
    p_tenant_id uuid,
    p_simulation_id uuid,
    p_declared jsonb DEFAULT NULL,
    p_skip_dangling boolean DEFAULT false,
    p_metadata jsonb DEFAULT '{}'::jsonb,
    p_name text DEFAULT NULL,
    p_scope jsonb DEFAULT NULL)
RETURNS uuid
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_attempt_id uuid := pg_catalog.gen_random_uuid();
    v_lock_key   integer := pg_catalog.hashtext(v_attempt_id::text);
    v_start      timestamptz;
    v_held       integer[];
BEGIN
    PERFORM memory._enter_simulation(p_tenant_id, p_simulation_id);
    -- On Citus the liveness of attempts is judged on the coordinator (memory._attempt_alive):
    -- an attempt begun on a worker would be judged dead there while it loads.
    IF memory._node_group() <> 0 THEN
        RAISE EXCEPTION 'begin_import runs on the Citus coordinator, not on a worker (group %)', memory._node_group()
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'connect to the coordinator to import; the calls of an import run on one session';
    END IF;
    PERFORM memory._not_null(p_skip_dangling, 'p_skip_dangling', 'pass true or false');
    PERFORM memory._check_limit('object_bytes', 'p_declared', pg_catalog.pg_column_size(p_declared));
    PERFORM memory._check_limit('object_bytes', 'p_metadata', pg_catalog.pg_column_size(p_metadata));
    PERFORM memory._check_limit('string_bytes', 'p_name', pg_catalog.octet_length(p_name));
    IF p_declared IS NOT NULL AND (pg_catalog.jsonb_typeof(p_declared) <> 'object'
        OR pg_catalog.jsonb_path_exists(p_declared, '$.* ? (@.type() != "number" || @ < 0)')
        OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_object_keys(p_declared) AS k
                    WHERE k NOT IN (SELECT r.kind FROM memory._record_kinds() AS r))) THEN
        RAISE EXCEPTION 'p_declared must map record kinds to counts, not %', memory._quote(p_declared::text)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'e.g. {"nodes": 30, "edges": 40}';
    END IF;
    PERFORM memory._check_limit('object_bytes', 'p_scope', pg_catalog.pg_column_size(p_scope));
    IF p_scope IS NOT NULL AND (pg_catalog.jsonb_typeof(p_scope) <> 'object' OR EXISTS (
            SELECT 1 FROM pg_catalog.jsonb_each(p_scope) AS e
              LEFT JOIN memory._record_kinds() AS k ON k.kind = e.key
             WHERE k.kind IS NULL
                OR (e.value <> 'null'::jsonb
                    AND (pg_catalog.jsonb_typeof(e.value) <> 'array'
                         OR pg_catalog.jsonb_path_exists(e.value, '$[*] ? (@.type() != "string")')
                         OR NOT EXISTS (SELECT 1 FROM memory._kind_columns(k.kind) AS c
                                         WHERE c.col = 'platform'))))) THEN
        RAISE EXCEPTION 'p_scope must map nodes, edges to null and episodes, profiles to null or a list of platforms, not %',
                memory._quote(p_scope::text)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'e.g. {"nodes": null, "edges": null, "episodes": ["twitter"]}, or NULL for the whole simulation';
    END IF;
    IF p_metadata IS NULL OR pg_catalog.jsonb_typeof(p_metadata) <> 'object' THEN
        RAISE EXCEPTION 'p_metadata must be a JSON object, not %', COALESCE(pg_catalog.jsonb_typeof(p_metadata), 'NULL')
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass {} for none';
    END IF;

    -- A retention sweep deciding about the simulation finishes first (its delete commits,
    -- and the insert below creates the simulation anew), or sees this attempt.
    PERFORM memory._lock_simulation(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id, p_wait => true);
    INSERT INTO memory.simulations (tenant_id, simulation_id, name, published)
    VALUES (p_tenant_id, p_simulation_id, p_name, false)
    ON CONFLICT (tenant_id, simulation_id) DO NOTHING;
    IF FOUND THEN  -- a new simulation: within the tenant's quota (53400; V0038)
        PERFORM memory._check_quota(p_tenant_id, 'simulations');
    END IF;
    PERFORM memory._fail_dead_attempts(p_tenant_id, p_simulation_id);
    -- On Citus a promote or an abort runs on the tenant's worker, which cannot release the
    -- lock this session took of the attempt: the locks it still holds of the tenant's
    -- attempts that have ended go here (on one node there are none).
    v_held := ARRAY(SELECT l.objid::integer FROM pg_catalog.pg_locks AS l
                     WHERE l.locktype = 'advisory' AND l.pid = pg_catalog.pg_backend_pid()
                       AND l.classid = memory._attempt_lock_class()::oid AND l.objsubid = 2);
    IF v_held <> '{}' THEN
        v_held := ARRAY(SELECT a.lock_key FROM memory.import_attempts AS a
                         WHERE a.tenant_id = p_tenant_id AND a.lock_key = ANY (v_held) AND a.state <> 'loading');
        PERFORM memory._release_attempt_lock(k.lock_key) FROM pg_catalog.unnest(v_held) AS k(lock_key);
    END IF;

    -- NULL where the current role lacks the privileges of the session's role (SET ROLE).
    SELECT s.backend_start INTO v_start
      FROM pg_catalog.pg_stat_activity AS s WHERE s.pid = pg_catalog.pg_backend_pid();
    INSERT INTO memory.import_attempts
           (tenant_id, simulation_id, attempt_id, lock_key, skip_dangling, declared, metadata,
            backend_pid, backend_start, scope)
    VALUES (p_tenant_id, p_simulation_id, v_attempt_id, v_lock_key, p_skip_dangling, p_declared,
            p_metadata || CASE WHEN p_name IS NULL THEN '{}'::jsonb
                               ELSE pg_catalog.jsonb_build_object('_name', p_name) END,
            pg_catalog.pg_backend_pid(), v_start, p_scope);
    -- Taken last: a session-level lock outlives a rolled-back call. Never waited for: a key
    -- held elsewhere (a hash collision, or a session holding keys on purpose) refuses the call.
    IF NOT pg_catalog.pg_try_advisory_lock(memory._attempt_lock_class(), v_lock_key) THEN
        RAISE EXCEPTION 'the lock key % of the new import attempt is held by another session', v_lock_key
            USING ERRCODE = 'lock_not_available', HINT = 'call memory.begin_import() again (a new attempt gets a new key)';
    END IF;
    RETURN v_attempt_id;
END
$fn$;

COMMENT ON FUNCTION memory.begin_import(uuid, uuid, jsonb, boolean, jsonb, text, jsonb) IS 'Begin a staged import attempt of a simulation (created unpublished if new); returns the attempt id';
GRANT EXECUTE ON FUNCTION memory.begin_import(uuid, uuid, jsonb, boolean, jsonb, text, jsonb) TO memory_writer;
