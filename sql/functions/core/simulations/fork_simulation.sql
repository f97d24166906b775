-- Fork a simulation: a new simulation of the tenant (p_simulation_id, its own id under the
-- same tenant contract) whose memory starts as the source's after round p_round (NULL: as
-- it is now), for a what-if run. Copied, one INSERT ... SELECT a kind, vectors and all (no
-- text is embedded again): every node and profile; the episodes of rounds up to p_round
-- (an episode without a round when it occurred by the round's end); the facts that had
-- begun by the round's end (memory._round_moment), an end the source learned after it
-- cleared, since at the round the fact still held. Reports and predictions are the source
-- run's conclusions and stay with it; evidence links are made again by memory.link_evidence.
-- The fork is then a simulation like any other: its writes never reach the source's rows.
-- Returns the rows copied of each kind. A replay (the same id, source and round) changes
-- nothing and returns zeros; an id already taken otherwise is 23505.
CREATE OR REPLACE FUNCTION memory.fork_simulation(
    p_tenant_id uuid,
    p_source_id uuid,
    p_simulation_id uuid,
    p_round integer DEFAULT NULL,
    p_name text DEFAULT NULL)
RETURNS TABLE (nodes bigint, edges bigint, episodes bigint, profiles bigint)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_moment  timestamptz;
    v_origin  jsonb;
    v_meta    jsonb;
    v_kind    text;
    v_cols    text;
    v_vals    text;
    v_filter  text;
    v_count   bigint;
    v_counts  jsonb := '{}'::jsonb;
    v_change  bigint;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_source_id);
    PERFORM memory._not_null(p_simulation_id, 'p_simulation_id', 'pass a new uuid for the fork');
    PERFORM memory._check_limit('string_bytes', 'p_name', pg_catalog.octet_length(p_name));
    IF p_simulation_id = p_source_id THEN
        RAISE EXCEPTION 'a simulation cannot be forked into itself (%)', p_source_id
            USING ERRCODE = 'invalid_parameter_value', HINT = 'pass a new uuid for the fork';
    END IF;
    IF p_round IS NOT NULL THEN
        SELECT c.as_of INTO v_moment
          FROM memory._read_clock(p_tenant_id, p_source_id, NULL, NULL, p_round, NULL) AS c;
    END IF;
    v_origin := pg_catalog.jsonb_build_object('source', p_source_id, 'round', p_round, 'as_of', v_moment);
    -- the source's row locked: no import commits into it while it is copied
    PERFORM 1 FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_source_id FOR SHARE;
    SELECT s.metadata INTO v_meta FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id;
    IF FOUND THEN
        IF v_meta -> 'forked_from' = v_origin THEN
            RETURN QUERY SELECT 0::bigint, 0::bigint, 0::bigint, 0::bigint;
            RETURN;
        END IF;
        RAISE EXCEPTION 'simulation % exists', p_simulation_id
            USING ERRCODE = 'unique_violation', HINT = 'a fork is a new simulation: pass a new uuid';
    END IF;

    INSERT INTO memory.simulations (tenant_id, simulation_id, name, metadata, embedding_model)
    SELECT s.tenant_id, p_simulation_id, COALESCE(p_name, s.name),
           s.metadata || pg_catalog.jsonb_build_object('forked_from', v_origin), s.embedding_model
      FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_source_id;
    PERFORM memory._check_quota(p_tenant_id, 'simulations');

    FOREACH v_kind IN ARRAY ARRAY['nodes', 'edges', 'episodes', 'profiles'] LOOP
        -- the kind's committed data columns (memory._kind_columns: the write path's list);
        -- at a round, a fact's end learned after it is cleared
        SELECT pg_catalog.string_agg(pg_catalog.format('%I', c.col), ', ' ORDER BY c.ord),
               pg_catalog.string_agg(CASE WHEN v_kind = 'edges' AND c.col IN ('invalid_at', 'expired_at')
                                          THEN pg_catalog.format('CASE WHEN $3 IS NULL OR s.%1$I <= $3 THEN s.%1$I END', c.col)
                                          ELSE pg_catalog.format('s.%I', c.col) END, ', ' ORDER BY c.ord)
          INTO v_cols, v_vals
          FROM memory._kind_columns(v_kind) WITH ORDINALITY
               AS c (col, type_sql, required, default_sql, committed, check_kind, value_sql, ord)
         WHERE c.committed;
        -- and the columns a committed row takes from its simulation (sim_no: as
        -- memory._merge_sql), the fork's own
        SELECT v_cols || COALESCE(pg_catalog.string_agg(pg_catalog.format(', %I', a.attname), ''), ''),
               v_vals || COALESCE(pg_catalog.string_agg(pg_catalog.format(
                   ', (SELECT v.%I FROM memory.simulations AS v WHERE v.tenant_id = $1 AND v.simulation_id = $2)',
                   a.attname), ''), '')
          INTO v_cols, v_vals
          FROM pg_catalog.pg_attribute AS a
          LEFT JOIN pg_catalog.pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE a.attrelid = (memory._kind(v_kind)).live AND a.attnum > 0 AND NOT a.attisdropped AND d.adbin IS NULL
           AND a.attname NOT IN ('tenant_id', 'simulation_id')
           AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_attribute AS st
                            WHERE st.attrelid = (memory._kind(v_kind)).staged AND st.attname = a.attname
                              AND NOT st.attisdropped)
           AND EXISTS (SELECT 1 FROM pg_catalog.pg_attribute AS sa
                        WHERE sa.attrelid = 'memory.simulations'::pg_catalog.regclass
                          AND sa.attname = a.attname AND NOT sa.attisdropped);
        v_filter := CASE v_kind
            WHEN 'edges' THEN ' AND ($3 IS NULL OR s.valid_at IS NULL OR s.valid_at <= $3)'
            WHEN 'episodes' THEN ' AND ($3 IS NULL OR s.round <= $4'
                                 ' OR (s.round IS NULL AND (s.occurred_at IS NULL OR s.occurred_at <= $3)))'
            ELSE '' END;
        EXECUTE pg_catalog.format('INSERT INTO %1$s (tenant_id, simulation_id, %2$s)'
                                  ' SELECT s.tenant_id, $2, %3$s FROM %1$s AS s'
                                  ' WHERE s.tenant_id = $1 AND s.simulation_id = $5%4$s',
                                  (memory._kind(v_kind)).live, v_cols, v_vals, v_filter)
          USING p_tenant_id, p_simulation_id, v_moment, p_round, p_source_id;
        GET DIAGNOSTICS v_count = ROW_COUNT;
        v_counts := v_counts || pg_catalog.jsonb_build_object(v_kind, v_count);
        IF v_count > 0 THEN
            PERFORM memory._check_quota(p_tenant_id, v_kind);
        END IF;
    END LOOP;
    -- the change feed (V0021): the fork arrives as an import of the new simulation
    v_change := memory._record_change(p_tenant_id => p_tenant_id, p_simulation_id => p_simulation_id,
                                      p_kind => 'simulation', p_op => 'import', p_ids => NULL,
                                      p_counts => v_counts, p_attempt_id => NULL,
                                      p_detail => pg_catalog.jsonb_build_object('forked_from', v_origin));
    RETURN QUERY SELECT (v_counts ->> 'nodes')::bigint, (v_counts ->> 'edges')::bigint,
                        (v_counts ->> 'episodes')::bigint, (v_counts ->> 'profiles')::bigint;
END
$fn$;

COMMENT ON FUNCTION memory.fork_simulation(uuid, uuid, uuid, integer, text) IS 'Start a new simulation as a copy of another''s memory after a round (vectors copied, nothing embedded again); idempotent';
GRANT EXECUTE ON FUNCTION memory.fork_simulation(uuid, uuid, uuid, integer, text) TO memory_writer;
