-- Phase two of a re-embed: switch a simulation's vectors to p_model in one transaction,
-- each row's vector (and a node's summary vector) taken from the tenant's vector cache,
-- where memory.reembed_texts' caller put them; the row records the model and its new
-- content hash (so the next import under p_model finds it unchanged), the simulation names
-- p_model, and the switch goes into the change feed. Readers see the old vectors until it
-- commits, then the new ones; never a mix. Returns the rows switched by kind (none when the
-- simulation is of p_model already).
-- Refused, nothing written: 55000 while an import of the simulation is loading (run it
-- again once the import is over; swarm-memory reembed waits) or while some text has no
-- vector of p_model in the cache (a row changed since it was read: run reembed_texts again);
-- 0A000 for a model of a dimension the memory does not store; an unknown model 22023.
-- Holds the simulation's row lock, as a promote does: one writer of its vectors at a time.
-- Each row it switches leaves a version in memory.row_history (its model changed).
CREATE OR REPLACE FUNCTION memory.switch_model(p_tenant_id uuid, p_simulation_id uuid, p_model text)
RETURNS TABLE (kind text, switched bigint)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '30s'
AS $fn$
DECLARE
    v_from    text;
    v_attempt uuid;
    v_missing bigint;
    v_counts  jsonb := '{}'::jsonb;
    v_rows    bigint;
    v_kind    text;
    v_text    text;
    v_change  bigint;
BEGIN
    PERFORM memory._require_simulation(p_tenant_id, p_simulation_id);
    PERFORM memory._reembed_model(p_model);
    PERFORM 1 FROM memory.simulations AS s
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id FOR UPDATE;
    SELECT a.attempt_id INTO v_attempt FROM memory.import_attempts AS a
     WHERE a.tenant_id = p_tenant_id AND a.simulation_id = p_simulation_id AND a.state = 'loading'
       AND memory._attempt_alive(a.lock_key, a.backend_pid, a.backend_start)
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'simulation % is importing (attempt %); its vectors are not switched meanwhile', p_simulation_id, v_attempt
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'switch once the import has committed or failed (swarm-memory reembed waits for it)';
    END IF;
    v_from := (memory._simulation_model(p_tenant_id, p_simulation_id)).model;

    SELECT pg_catalog.count(*) INTO v_missing
      FROM memory._reembed_sources(p_tenant_id, p_simulation_id, p_model) AS s
     WHERE NOT EXISTS (SELECT 1 FROM memory.vector_cache AS c
                        WHERE c.tenant_id = p_tenant_id AND c.embedding_model = p_model
                          AND c.content_hash = s.text_hash AND memory._vector_problem(c.embedding) IS NULL);
    IF v_missing > 0 THEN
        RAISE EXCEPTION '% texts of simulation % have no vector of model % yet', v_missing, p_simulation_id,
                        pg_catalog.quote_literal(p_model)
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'embed what memory.reembed_texts() lists and add it with memory.cache_vectors(), then switch (swarm-memory reembed does both)';
    END IF;

    -- The vector of a text, from the cache (the check above found every one).
    UPDATE memory.nodes AS n
       SET embedding = (SELECT c.embedding FROM memory.vector_cache AS c
                         WHERE c.tenant_id = p_tenant_id AND c.embedding_model = p_model
                           AND c.content_hash = memory._text_hash(p_model, n.type || ': ' || n.name)),
           summary_embedding = CASE WHEN n.summary_embedding IS NOT NULL THEN
                                   (SELECT c.embedding FROM memory.vector_cache AS c
                                     WHERE c.tenant_id = p_tenant_id AND c.embedding_model = p_model
                                       AND c.content_hash = memory._text_hash(p_model, n.summary)) END,
           embedding_model = p_model,
           content_hash = memory._text_hash(p_model, n.type || ': ' || n.name
                                            || CASE WHEN n.summary_embedding IS NOT NULL THEN E'\x1f' || n.summary ELSE '' END),
           updated_at = pg_catalog.now()
     WHERE n.tenant_id = p_tenant_id AND n.simulation_id = p_simulation_id
       AND n.embedding IS NOT NULL AND n.embedding_model IS DISTINCT FROM p_model;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_counts := v_counts || pg_catalog.jsonb_build_object('nodes', v_rows);

    -- An edge's vector is its fact's, an episode's its content's: one statement for both.
    FOR v_kind, v_text IN VALUES ('edges', 'fact'), ('episodes', 'content') LOOP
        EXECUTE pg_catalog.format($sql$
            UPDATE memory.%1$I AS r
               SET embedding = (SELECT c.embedding FROM memory.vector_cache AS c
                                 WHERE c.tenant_id = $1 AND c.embedding_model = $3
                                   AND c.content_hash = memory._text_hash($3, r.%2$I)),
                   embedding_model = $3, content_hash = memory._text_hash($3, r.%2$I),
                   updated_at = pg_catalog.now()
             WHERE r.tenant_id = $1 AND r.simulation_id = $2
               AND r.embedding IS NOT NULL AND r.embedding_model IS DISTINCT FROM $3$sql$, v_kind, v_text)
          USING p_tenant_id, p_simulation_id, p_model;
        GET DIAGNOSTICS v_rows = ROW_COUNT;
        v_counts := v_counts || pg_catalog.jsonb_build_object(v_kind, v_rows);
    END LOOP;

    UPDATE memory.report_chunks AS r
       SET embedding = (SELECT c.embedding FROM memory.vector_cache AS c
                         WHERE c.tenant_id = p_tenant_id AND c.embedding_model = p_model
                           AND c.content_hash = memory._text_hash(p_model, s.title || E'\n' || r.content)),
           embedding_model = p_model,
           content_hash = memory._text_hash(p_model, s.title || E'\n' || r.content),
           updated_at = pg_catalog.now()
      FROM memory.report_sections AS s
     WHERE r.tenant_id = p_tenant_id AND r.simulation_id = p_simulation_id
       AND s.tenant_id = r.tenant_id AND s.simulation_id = r.simulation_id
       AND s.report_key = r.report_key AND s.section_index = r.section_index
       AND r.embedding IS NOT NULL AND r.embedding_model IS DISTINCT FROM p_model;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    v_counts := v_counts || pg_catalog.jsonb_build_object('report_chunks', v_rows);

    UPDATE memory.simulations AS s SET embedding_model = p_model
     WHERE s.tenant_id = p_tenant_id AND s.simulation_id = p_simulation_id
       AND s.embedding_model IS DISTINCT FROM p_model;
    IF v_from IS DISTINCT FROM p_model OR EXISTS (SELECT 1 FROM pg_catalog.jsonb_each(v_counts) AS c WHERE c.value::bigint > 0) THEN
        v_change := memory._record_change(p_tenant_id => p_tenant_id,
                                          p_simulation_id => p_simulation_id,
                                          p_kind => 'embeddings', p_op => 'reembed', p_ids => NULL,
                                          p_counts => v_counts, p_attempt_id => NULL,
                                          p_detail => pg_catalog.jsonb_build_object('from_model', v_from, 'to_model', p_model));
    END IF;
    RETURN QUERY SELECT c.key, c.value::bigint FROM pg_catalog.jsonb_each(v_counts) AS c ORDER BY c.key;
END
$fn$;

COMMENT ON FUNCTION memory.switch_model(uuid, uuid, text) IS 'Switch a simulation''s vectors to a model atomically, from the tenant''s vector cache (55000 while importing or incomplete); recorded in the change feed';
GRANT EXECUTE ON FUNCTION memory.switch_model(uuid, uuid, text) TO memory_writer;
