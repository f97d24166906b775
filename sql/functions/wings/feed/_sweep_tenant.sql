-- memory.sweep's work for one tenant, by its policy (memory.retention_rules): every
-- simulation whose last change (updated_at) is older than keep_days at p_now goes, with its
-- rows of every kind (as delete_simulation; one change in the feed each, op retention, with
-- the counts), except a simulation an import is loading into (kept, reported; an attempt
-- whose session has gone keeps nothing, memory._attempt_alive) and one with a live snapshot
-- (memory.create_snapshot: kept, reported, until it is dropped); then, when
-- the policy compacts, each remaining simulation's near-duplicate episodes are compacted
-- (memory._compact_episodes). Returns one row per action.
-- SECURITY DEFINER: administrators hold no DELETE. Called by memory.sweep; checks the
-- session user is memory_admin and enters the tenant (memory._enter_tenant_as_admin).
-- search_path is pinned to pg_catalog, pg_temp (pg_temp last): this body runs with its
-- owner's rights, so no schema or temporary object of the caller may stand in for a name
-- it uses; every name outside pg_catalog is written schema-qualified.
-- Session state: memory._acting_role()'s memory_admin privileges and the call's tenant
-- setting, which memory._enter_tenant_as_admin makes in this call; its SET clauses pin the
-- rest, and every value passes as a parameter.
CREATE OR REPLACE FUNCTION memory._sweep_tenant(p_tenant_id uuid, p_now timestamptz)
RETURNS TABLE (simulation_id uuid, action text, detail jsonb)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
    v_rule   memory.retention_rules;
    v_sim    record;
    v_kind   memory.record_kind;
    v_count  bigint;
    v_counts jsonb;
    v_done   record;
    v_change bigint;
    v_attempt record;
    v_loading boolean;
BEGIN
    PERFORM memory._enter_tenant_as_admin(p_tenant_id);
    SELECT * INTO v_rule FROM memory.retention_rules AS r WHERE r.tenant_id = p_tenant_id;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF v_rule.keep_days IS NOT NULL THEN
        FOR v_sim IN
            SELECT s.simulation_id, s.updated_at,
                   -- a live snapshot keeps its simulation (V0047)
                   EXISTS (SELECT 1 FROM memory.snapshots AS f
                            WHERE f.tenant_id = p_tenant_id AND f.simulation_id = s.simulation_id
                              AND f.dropped_at IS NULL) AS frozen
              FROM memory.simulations AS s
             WHERE s.tenant_id = p_tenant_id
               AND s.updated_at < p_now - pg_catalog.make_interval(days => v_rule.keep_days)
             ORDER BY s.updated_at, s.simulation_id
        LOOP
            -- An attempt keeps its simulation only while the session that began it lives: a
            -- killed importer never rerun leaves its attempt 'loading' for ever.
            -- (The tenant by the argument: Citus routes the query to the tenant's shard only
            -- so; on a worker every attempt counts as alive, memory._attempt_alive.)
            -- Under the simulation's lock (memory._lock_simulation), which begin_import
            -- takes too: no import begins between this judgement and the delete. Held by
            -- another transaction (an import beginning), the simulation is kept. The
            -- sessions are read afresh: an importer that connected since this transaction
            -- first read pg_stat_activity is not in its snapshot.
            v_loading := NOT memory._lock_simulation(p_tenant_id => p_tenant_id,
                                                     p_simulation_id => v_sim.simulation_id,
                                                     p_wait => false);
            PERFORM pg_catalog.pg_stat_clear_snapshot();
            FOR v_attempt IN SELECT a.lock_key, a.backend_pid, a.backend_start
                               FROM memory.import_attempts AS a
                              WHERE NOT v_loading
                                AND a.tenant_id = p_tenant_id AND a.simulation_id = v_sim.simulation_id
                                AND a.state = 'loading' LOOP
                IF memory._attempt_alive(v_attempt.lock_key, v_attempt.backend_pid, v_attempt.backend_start) THEN
                    v_loading := true;
                    EXIT;
                END IF;
            END LOOP;
            IF v_loading THEN
                simulation_id := v_sim.simulation_id;
                action := 'kept_importing';
                detail := pg_catalog.jsonb_build_object('updated_at', v_sim.updated_at);
                RETURN NEXT;
                CONTINUE;
            END IF;
            IF v_sim.frozen THEN
                simulation_id := v_sim.simulation_id;
                action := 'kept_snapshot';
                detail := pg_catalog.jsonb_build_object('updated_at', v_sim.updated_at);
                RETURN NEXT;
                CONTINUE;
            END IF;
            v_counts := '{}'::jsonb;
            FOR v_kind IN SELECT * FROM memory._record_kinds() AS k ORDER BY k.ord LOOP
                EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s AS l WHERE l.tenant_id = $1 AND l.simulation_id = $2',
                                          v_kind.live)
                   INTO v_count USING p_tenant_id, v_sim.simulation_id;
                v_counts := v_counts || pg_catalog.jsonb_build_object(v_kind.kind, v_count);
            END LOOP;
            -- (again by its age: a simulation changed meanwhile stays)
            DELETE FROM memory.simulations AS s
             WHERE s.tenant_id = p_tenant_id AND s.simulation_id = v_sim.simulation_id
               AND s.updated_at < p_now - pg_catalog.make_interval(days => v_rule.keep_days)
               AND NOT EXISTS (SELECT 1 FROM memory.snapshots AS f
                                WHERE f.tenant_id = p_tenant_id AND f.simulation_id = s.simulation_id
                                  AND f.dropped_at IS NULL);
            CONTINUE WHEN NOT FOUND;
            v_change := memory._record_change(p_tenant_id => p_tenant_id,
                                              p_simulation_id => v_sim.simulation_id,
                                              p_kind => 'simulation', p_op => 'retention',
                                              p_ids => NULL, p_counts => v_counts,
                                              p_attempt_id => NULL,
                                              p_detail => pg_catalog.jsonb_build_object('keep_days', v_rule.keep_days, 'updated_at', v_sim.updated_at));
            simulation_id := v_sim.simulation_id;
            action := 'deleted';
            detail := v_counts || pg_catalog.jsonb_build_object('updated_at', v_sim.updated_at);
            RETURN NEXT;
        END LOOP;
    END IF;
    IF v_rule.compact_similarity IS NOT NULL THEN
        FOR v_sim IN SELECT s.simulation_id FROM memory.simulations AS s
                      WHERE s.tenant_id = p_tenant_id ORDER BY s.simulation_id LOOP
            SELECT * INTO v_done FROM memory._compact_episodes(p_tenant_id, v_sim.simulation_id,
                                                               v_rule.compact_similarity, v_rule.compact_drop);
            IF v_done.clumps > 0 THEN
                simulation_id := v_sim.simulation_id;
                action := 'compacted';
                detail := pg_catalog.to_jsonb(v_done);
                RETURN NEXT;
            END IF;
        END LOOP;
    END IF;
END
$fn$;

COMMENT ON FUNCTION memory._sweep_tenant(uuid, timestamptz) IS 'Internal: apply a tenant''s retention and compaction policy (SECURITY DEFINER: administrators hold no DELETE)';
GRANT EXECUTE ON FUNCTION memory._sweep_tenant(uuid, timestamptz) TO memory_admin;
