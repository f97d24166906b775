-- A person's verdict on a link between an entity of one simulation and one of another:
-- 'confirmed' (the same thing: kept even when linking no longer finds it; made by hand
-- when it was never found), 'refused' (not the same: never linked again) or 'auto' (the
-- verdict withdrawn: linking decides again). Keyed by the simulations and the nodes' ids as
-- imported, so a re-import of either run keeps it. Both entities must exist (P0002); the
-- same verdict again changes nothing.
CREATE OR REPLACE FUNCTION memory.decide_link(p_tenant_id uuid, p_simulation_id uuid, p_node_id text,
                                              p_other_simulation_id uuid, p_other_node_id text,
                                              p_decision text)
RETURNS TABLE (simulation_a uuid, node_a text, simulation_b uuid, node_b text, score real,
               decision text, decided_by name, decided_at timestamptz)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER
SET search_path = pg_catalog, pg_temp SET lock_timeout = '5s'
AS $fn$
DECLARE
    v_a      uuid := LEAST(p_simulation_id, p_other_simulation_id);
    v_b      uuid := GREATEST(p_simulation_id, p_other_simulation_id);
    v_node_a text := CASE WHEN p_simulation_id < p_other_simulation_id THEN p_node_id ELSE p_other_node_id END;
    v_node_b text := CASE WHEN p_simulation_id < p_other_simulation_id THEN p_other_node_id ELSE p_node_id END;
    v_stored text;
BEGIN
    PERFORM memory._require_row('nodes', p_tenant_id, p_simulation_id, p_node_id);
    PERFORM memory._require_row('nodes', p_tenant_id, p_other_simulation_id, p_other_node_id);
    PERFORM memory._one_of('decision', p_decision, ARRAY['confirmed', 'refused', 'auto']);
    IF p_simulation_id = p_other_simulation_id THEN
        RAISE EXCEPTION 'a link joins two simulations, not % with itself', p_simulation_id
            USING ERRCODE = 'invalid_parameter_value', HINT = 'name an entity of another simulation';
    END IF;
    IF p_decision = 'auto' THEN
        UPDATE memory.identity_links AS l
           SET decision = 'auto', decided_by = NULL, decided_at = NULL, updated_at = pg_catalog.now(),
               -- a link made by hand was never found: it stops counting until linking finds it
               current = l.current AND l.decision <> 'manual'
         WHERE l.tenant_id = p_tenant_id AND l.simulation_a = v_a AND l.node_a = v_node_a
           AND l.simulation_b = v_b AND l.node_b = v_node_b AND l.decision <> 'auto';
    ELSE
        SELECT l.decision INTO v_stored FROM memory.identity_links AS l
         WHERE l.tenant_id = p_tenant_id AND l.simulation_a = v_a AND l.node_a = v_node_a
           AND l.simulation_b = v_b AND l.node_b = v_node_b
           FOR UPDATE;
        IF NOT FOUND THEN
            INSERT INTO memory.identity_links AS l
                   (tenant_id, simulation_a, node_a, simulation_b, node_b, score, evidence, decision,
                    current, decided_by, decided_at)
            VALUES (p_tenant_id, v_a, v_node_a, v_b, v_node_b,
                    CASE WHEN p_decision = 'confirmed' THEN 1 ELSE 0 END,
                    '{"by_hand": true}', CASE WHEN p_decision = 'confirmed' THEN 'manual' ELSE 'refused' END,
                    false, CURRENT_USER, pg_catalog.now())
            ON CONFLICT ON CONSTRAINT identity_links_pkey DO NOTHING;
        ELSIF v_stored <> p_decision AND NOT (v_stored = 'manual' AND p_decision = 'confirmed') THEN
            UPDATE memory.identity_links AS l
               SET decision = p_decision, decided_by = CURRENT_USER, decided_at = pg_catalog.now(),
                   updated_at = pg_catalog.now()
             WHERE l.tenant_id = p_tenant_id AND l.simulation_a = v_a AND l.node_a = v_node_a
               AND l.simulation_b = v_b AND l.node_b = v_node_b;
        END IF;
    END IF;
    RETURN QUERY
    SELECT l.simulation_a, l.node_a, l.simulation_b, l.node_b, l.score, l.decision, l.decided_by, l.decided_at
      FROM memory.identity_links AS l
     WHERE l.tenant_id = p_tenant_id AND l.simulation_a = v_a AND l.node_a = v_node_a
       AND l.simulation_b = v_b AND l.node_b = v_node_b;
END
$fn$;

COMMENT ON FUNCTION memory.decide_link(uuid, uuid, text, uuid, text, text) IS 'Confirm, refuse or make by hand a link between entities of two simulations (auto withdraws the verdict); kept across re-imports';
GRANT EXECUTE ON FUNCTION memory.decide_link(uuid, uuid, text, uuid, text, text) TO memory_writer;
