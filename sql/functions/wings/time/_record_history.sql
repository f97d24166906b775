-- Trigger of memory.nodes, memory.edges and memory.episodes (sql/finalize/history.sql), once
-- a statement, after an UPDATE or a DELETE: the versions the statement ended go to
-- memory.row_history, each with the interval it was the memory's word (from its updated_at
-- to now) and the import attempt whose promote ended it (memory.commit_import names it in
-- the memory.attempt_id setting, believed only for an attempt this backend began and holds
-- the lock of (memory._attempt_alive: a reused pid does not); NULL for an upsert). A
-- version is kept without its vectors. Rows that go with
-- their simulation (a delete of the simulation or the tenant) leave no history: it goes
-- with them. The versions' times are the memory's transaction times (now(): when the
-- writing transaction began), and a version starts at the row's updated_at.
-- On a Citus worker the trigger fires on a shard, and its statement on memory.row_history is
-- Citus's to plan, which cannot see a transition table nor a correlated subquery beside a
-- function in FROM: there the old rows are read into jsonb first, by a statement on the
-- transition table alone, and written tenant by tenant (Citus requires a statement of a
-- call delegated to the tenant's worker to name the tenant), for the simulations that are
-- still there. No version is attributed to an attempt there: the backend that runs the
-- delegated promote is not the one that began the attempt (memory._attempt_alive).
-- SECURITY DEFINER (owned by memory_owner, whose policies admit only the call's tenant) so
-- that no tenant role holds a privilege on memory.row_history beyond reading it: it copies
-- only rows the statement that fired it changed, which that statement's role could change.
-- The kind is the table's name: the trigger's argument where sql/finalize/history.sql gives
-- one, else TG_TABLE_NAME without the shard suffix Citus gives a shard's name (nodes_102061
-- on a worker; no record kind's name ends in _<digits>).
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory.attempt_id, believed only for a live attempt this backend began
-- (memory._attempt_alive); the rows are those the firing statement changed under its own
-- policies; its SET clauses pin the rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._record_history() RETURNS trigger
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_kind    text := COALESCE(TG_ARGV[0], pg_catalog.regexp_replace(TG_TABLE_NAME, '_[0-9]+$', ''));
    v_id      name := (memory._kind(v_kind)).id_column;
    v_setting text := pg_catalog.current_setting('memory.attempt_id', true);
    v_attempt uuid;
    v_tenant  uuid;
    v_rows    jsonb;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM old_rows) THEN
        RETURN NULL;
    END IF;
    IF TG_NARGS = 1 AND TG_TABLE_NAME <> TG_ARGV[0] THEN
        FOR v_tenant, v_rows IN
            SELECT r.tenant_id, pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                       'simulation_id', r.simulation_id, 'updated_at', r.updated_at,
                       'row', pg_catalog.to_jsonb(r) - ARRAY['embedding', 'summary_embedding']))
              FROM old_rows AS r GROUP BY r.tenant_id
        LOOP
            INSERT INTO memory.row_history (tenant_id, simulation_id, kind, row_id, recorded_from, recorded_to,
                                            change, attempt_id, data)
            SELECT v_tenant, o.simulation_id, v_kind, o.row ->> v_id, o.updated_at,
                   GREATEST(pg_catalog.now(), o.updated_at),
                   CASE TG_OP WHEN 'UPDATE' THEN 'updated' ELSE 'removed' END, NULL, o.row
              FROM pg_catalog.jsonb_to_recordset(v_rows) AS o (simulation_id uuid, updated_at timestamptz, row jsonb)
             WHERE o.simulation_id = ANY (ARRAY(SELECT s.simulation_id FROM memory.simulations AS s
                                                  WHERE s.tenant_id = v_tenant));
        END LOOP;
        RETURN NULL;
    END IF;
    IF pg_catalog.pg_input_is_valid(v_setting, 'uuid') THEN
        SELECT a.attempt_id INTO v_attempt FROM memory.import_attempts AS a
         WHERE a.attempt_id = v_setting::uuid AND a.backend_pid = pg_catalog.pg_backend_pid()
           AND memory._attempt_alive(a.lock_key, a.backend_pid, a.backend_start);
    END IF;
    INSERT INTO memory.row_history (tenant_id, simulation_id, kind, row_id, recorded_from, recorded_to,
                                    change, attempt_id, data)
    SELECT o.tenant_id, o.simulation_id, v_kind, o.row ->> v_id, o.updated_at,
           GREATEST(pg_catalog.now(), o.updated_at),
           CASE TG_OP WHEN 'UPDATE' THEN 'updated' ELSE 'removed' END, v_attempt,
           o.row - ARRAY['embedding', 'summary_embedding']
      FROM (SELECT r.tenant_id, r.simulation_id, r.updated_at, pg_catalog.to_jsonb(r) AS row FROM old_rows AS r) AS o
     WHERE EXISTS (SELECT 1 FROM memory.simulations AS s
                    WHERE s.tenant_id = o.tenant_id AND s.simulation_id = o.simulation_id);
    RETURN NULL;
END
$fn$;

COMMENT ON FUNCTION memory._record_history() IS 'Internal: trigger keeping the versions an update or delete of nodes, edges or episodes ended (memory.row_history)';
